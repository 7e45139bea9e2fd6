// @module Link: a real link to another state of the page (opens in a new tab with a modifier key), followed in place with pushState.
import type { ComponentChildren } from "preact";
import { hrefOf, navigate } from "./url-state.ts";

export function Link(props: {
  to: URLSearchParams;
  children: ComponentChildren;
  class?: string;
  "aria-current"?: "page" | "location" | undefined;
}) {
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={hrefOf(props.to)} onClick={onClick} class={props.class} aria-current={props["aria-current"]}>
      {props.children}
    </a>
  );
}
