// @module What a tool returns: structured content with a short summary and the same JSON as text, or a tool error carrying the REST problem.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ProblemBody } from "../contract/errors.ts";
import type { RestAnswer } from "./rest-call.ts";

/**
 * The JSON is repeated as text because many MCP hosts hand only `content` to the model (the
 * protocol asks tools returning structured content to do so for compatibility).
 */
function toolAnswer(structured: Record<string, unknown>, summary: string): CallToolResult {
  return {
    content: [
      { type: "text", text: summary },
      { type: "text", text: JSON.stringify(structured) },
    ],
    structuredContent: structured,
  };
}

/** `n` and the noun, plural unless n is 1: "1 object", "3 objects". */
export const count = (n: number, noun: string, plural = `${noun}s`): string => `${n} ${n === 1 ? noun : plural}`;

/** A tool error whose text is the REST problem body (status, title, code, detail, parameter) as JSON. */
export function toolProblem(problem: ProblemBody): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(problem) }] };
}

/** The tool's answer to a REST answer: `shape` turns a 200 body into the structured content and its summary. */
export function fromRest<T>(
  answer: RestAnswer,
  shape: (body: T) => { structured: Record<string, unknown>; summary: string },
): CallToolResult {
  if (!answer.ok) return toolProblem(answer.problem);
  const { structured, summary } = shape(answer.body as T);
  return toolAnswer(structured, summary);
}
