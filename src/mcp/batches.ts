// @module JSON-RPC batches on /mcp: refused under MCP 2025-06-18 and later, which removed them; a few messages at most under 2025-03-26, which has them.
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { boundedText } from "./bounded-text.ts";

/** The first protocol version without JSON-RPC batches. */
const BATCHES_REMOVED_IN = "2025-06-18";

/**
 * Messages a batch may hold where the protocol has batches. The transport answers a batch in one
 * JSON-RPC message, every answer in it held until the last is ready: 20 find_objects of 10000
 * objects held 437 MB. Each tool answer being capped (MAX_TOOL_ANSWER_BYTES), so is a batch's.
 */
export const MAX_BATCH_MESSAGES = 4;

/** Request bodies read here at most: the transport's own limit (4 MiB), which answers a larger one. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** What to do with a POST: answer `refusal`, or let the transport answer, with the body already parsed when it was read here. */
export type BatchCheck = { refusal: Response } | { parsedBody?: unknown };

function jsonRpcError(message: string): Response {
  // As the transport words its own refusals: HTTP 400, JSON-RPC "Invalid Request", no id to answer.
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message }, id: null }), {
    status: 400,
    headers: { "Content-Type": "application/json" },
  });
}

/**
 * Looks at a copy of the body: anything but a JSON array (a single message, malformed JSON, a body
 * too large) goes to the transport untouched, which answers it as it does. A batch is refused from
 * 2025-06-18 on (the version the request names in Mcp-Protocol-Version, the transport's default
 * 2025-03-26 when it names none), and past MAX_BATCH_MESSAGES before it.
 */
export async function checkBatch(request: Request): Promise<BatchCheck> {
  const text = await boundedText(request.clone().body, MAX_BODY_BYTES);
  if (text === null || !text.trimStart().startsWith("[")) return {};
  let messages: unknown;
  try {
    messages = JSON.parse(text);
  } catch {
    return {};
  }
  if (!Array.isArray(messages)) return {};
  const version = request.headers.get("mcp-protocol-version") ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  if (version >= BATCHES_REMOVED_IN)
    return {
      refusal: jsonRpcError(
        `Invalid Request: MCP ${version} has no JSON-RPC batches (removed in ${BATCHES_REMOVED_IN}); send each message in a POST of its own`,
      ),
    };
  if (messages.length > MAX_BATCH_MESSAGES)
    return {
      refusal: jsonRpcError(
        `Invalid Request: a batch of ${messages.length} messages; this server answers at most ${MAX_BATCH_MESSAGES} per batch: send the others in further POSTs`,
      ),
    };
  return { parsedBody: messages };
}
