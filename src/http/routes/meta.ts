// @module Meta routes: the OpenAPI document at /openapi.json and the API reference page (Scalar) at /docs.
import { Scalar } from "@scalar/hono-api-reference";
import type { Hono } from "hono";
import type { AppEnv } from "../context.ts";
import { openApiDocument } from "../openapi.ts";

export const META_PATHS = ["/openapi.json", "/docs"] as const;

let document: string | undefined;

export function metaRoutes(app: Hono<AppEnv>): void {
  // Built once per isolate: the document depends only on the code.
  app.get("/openapi.json", (c) => {
    document ??= JSON.stringify(openApiDocument());
    return c.body(document, 200, { "Content-Type": "application/json" });
  });
  // The viewer is the explorer's static asset docs/api-reference.js (web/vite.config.ts copies it from
  // @scalar/api-reference) with the system fonts, and without the features that call Scalar's servers
  // (its AI agent): the page needs nothing from another origin.
  app.get(
    "/docs",
    Scalar({
      url: "/openapi.json",
      pageTitle: "appstruct API",
      cdn: "/docs/api-reference.js",
      withDefaultFonts: false,
      agent: { disabled: true },
      showDeveloperTools: "never",
    }),
  );
}
