// @module Vitest global setup: builds the explorer's bundle (web/dist) once before any test, since every `wrangler dev` a test starts serves it as static assets (wrangler refuses to start without the folder).
import { ensureWebBuilt } from "../../scripts/build-web.ts";

export default async function setup(): Promise<void> {
  await ensureWebBuilt();
}
