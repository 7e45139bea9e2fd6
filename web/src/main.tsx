// @module Entry point of the explorer: renders App into #root.
import { render } from "preact";
import { App } from "./App.tsx";
import "./styles.css";

render(<App />, document.getElementById("root")!);
