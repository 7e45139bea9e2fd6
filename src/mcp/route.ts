// @module POST /mcp: the Model Context Protocol over Streamable HTTP, stateless (a server and transport per request, JSON answers), with the API's key rules.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Hono } from "hono";
import { cors } from "hono/cors";
import { ApiError } from "../contract/errors.ts";
import { authenticate, presentedKey } from "../http/access.ts";
import type { AppEnv } from "../http/context.ts";
import { checkBatch } from "./batches.ts";
import { restCaller } from "./rest-call.ts";
import { createMcpServer } from "./server.ts";

const MCP_PATH = "/mcp";

/**
 * Browser clients (MCP Inspector) preflight POST with the protocol's headers. Mounted before the
 * API's own CORS, which allows only GET and HEAD. Nothing to expose: a stateless server sends no
 * Mcp-Session-Id.
 */
export function mcpCors(app: Hono<AppEnv>): void {
  app.use(
    MCP_PATH,
    cors({
      origin: "*",
      allowMethods: ["POST", "OPTIONS"],
      allowHeaders: [
        "Content-Type",
        "Accept",
        "X-API-KEY",
        "Authorization",
        "Mcp-Protocol-Version",
        "Mcp-Session-Id",
        "Last-Event-ID",
      ],
      maxAge: 86400,
    }),
  );
}

export function mcpRoutes(app: Hono<AppEnv>): void {
  app.post(MCP_PATH, async (c) => {
    const { access } = c.get("deps");
    const key = presentedKey(c.req.raw);
    // The key is checked here so /mcp itself answers 401; its scope is the REST routes' (403, and the list of applications).
    if (access) await authenticate(access, key);
    const address = c.req.header("CF-Connecting-IP");
    const forwarded = {
      ...(key === undefined ? {} : { "X-API-KEY": key }),
      ...(address === undefined ? {} : { "CF-Connecting-IP": address }),
    };
    const rest = restCaller(
      (request) => Promise.resolve(app.fetch(request, c.env)),
      new URL(c.req.url).origin,
      forwarded,
    );
    const batch = await checkBatch(c.req.raw);
    if ("refusal" in batch) return batch.refusal;
    const server = createMcpServer({ rest });
    // No session id generator: stateless, so any isolate can answer any request.
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw, batch);
    } finally {
      await server.close();
    }
  });
  // Stateless: no server-sent event stream to GET and no session to DELETE.
  app.all(MCP_PATH, (c) => {
    throw new ApiError(
      "method_not_allowed",
      `${c.req.method} is not allowed on ${MCP_PATH}: this MCP endpoint is stateless; send JSON-RPC messages with POST`,
      { headers: { Allow: "POST" } },
    );
  });
}
