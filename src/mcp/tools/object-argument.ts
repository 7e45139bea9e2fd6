// @module The object a tool is about: its `id`, or its `name` (an exact full name, or an exact name that is unique), resolved through find objects; several matches are an ambiguous_object tool error listing candidates.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ApiFindObjectsResult } from "../../contract/api-schemas.ts";
import { applicationPath, type RestCall } from "../rest-call.ts";
import { toolProblem } from "../tool-result.ts";
import { objectId } from "./arguments.ts";

export const objectName = z
  .string()
  .min(1)
  .describe(
    "Instead of id: the object's exact full name (e.g. org.pets.OwnerRepository.findById), or its exact name when no other object has it. Several matches are an ambiguous_object error listing candidates.",
  );

/** The two ways of naming the object a tool is about; exactly one is given. */
export const objectArgument = { id: objectId.optional(), name: objectName.optional() };

/** Candidates an ambiguous_object error lists at most. */
const CANDIDATES = 10;
/** Case variants of a name read at once: find objects matches without regard to case, the tools exactly. */
const MATCHES_READ = 1000;

/** The object id the arguments name, or the tool error saying why they name none, or several. */
export async function resolveObject(
  rest: RestCall,
  application: string,
  args: { id?: string; name?: string; date?: string },
  labels: { id: string; name: string } = { id: "id", name: "name" },
): Promise<{ id: string } | { error: CallToolResult }> {
  if ((args.id === undefined) === (args.name === undefined))
    return {
      error: problem(
        "invalid_parameter",
        `give ${labels.id} (an object id) or ${labels.name} (an object's full name or name), exactly one of them`,
        labels.id,
      ),
    };
  if (args.id !== undefined) return { id: args.id };
  const name = args.name!;
  for (const field of ["fullname", "name"] as const) {
    const answer = await rest(
      applicationPath(application, "/objects"),
      { [field]: name, operator: "equals", limit: MATCHES_READ, date: args.date },
      { parameter: labels.name, advice: "give the object's id instead" },
    );
    if (!answer.ok) return { error: toolProblem(answer.problem) };
    const { objects } = answer.body as ApiFindObjectsResult;
    const exact = objects.filter((o) => (field === "fullname" ? o.fullName : o.name) === name);
    if (exact.length === 1) return { id: exact[0].id };
    if (exact.length > 1)
      return {
        error: problem(
          "ambiguous_object",
          `${exact.length} objects have the ${field === "fullname" ? "full name" : "name"} ${JSON.stringify(name)}: give one's id (or its full name) instead`,
          labels.name,
          exact.slice(0, CANDIDATES).map((o) => ({ id: o.id, fullName: o.fullName, type: o.type })),
        ),
      };
  }
  return {
    error: problem(
      "object_not_found",
      `application ${JSON.stringify(application)} has no object whose full name or name is exactly ${JSON.stringify(name)}; find_objects searches by part of a name`,
      labels.name,
    ),
  };
}

/** A tool handler given the arguments with `id` resolved from `id` or `name`. */
export function onObject<A extends { application: string; id?: string; name?: string; date?: string }>(
  rest: RestCall,
  handler: (args: A & { id: string }) => Promise<CallToolResult>,
): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    const object = await resolveObject(rest, args.application, args);
    return "error" in object ? object.error : handler({ ...args, id: object.id });
  };
}

/** A tool error shaped as the REST problems are, for the codes only the tools answer. */
function problem(
  code: "invalid_parameter" | "ambiguous_object" | "object_not_found",
  detail: string,
  parameter: string,
  candidates?: { id: string; fullName: string; type: string }[],
): CallToolResult {
  const status = code === "invalid_parameter" ? 400 : code === "ambiguous_object" ? 409 : 404;
  const title = {
    invalid_parameter: "Invalid parameter",
    ambiguous_object: "Ambiguous object",
    object_not_found: "Object not found",
  }[code];
  return {
    isError: true,
    content: [{ type: "text", text: JSON.stringify({ status, title, code, detail, parameter, candidates }) }],
  };
}
