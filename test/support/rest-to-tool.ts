// @module The MCP tool call that asks what a worked REST request asks, or null when the tools cannot express it (malformed ids, repeated single values, unknown parameters).
import { MAX_TOOL_LIMIT } from "../../src/mcp/tools/find-objects.ts";

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** Where the REST body sits in the structured answer: the whole of it, or one field of a wrapper. */
  unwrap: (structured: Record<string, unknown>) => unknown;
}

const whole = (s: Record<string, unknown>) => s;
/** find_objects adds nextSkip beside the REST body. */
const withoutNextSkip = ({ nextSkip: _, ...rest }: Record<string, unknown>) => rest;

/** A canonical decimal integer (what a JSON number sends back as the same text), else null. */
const integer = (v: string): number | null => (/^(0|[1-9][0-9]{0,14})$/.test(v) ? Number(v) : null);

const FILTERS = ["name", "fullname", "filepath", "mangling", "annotation", "tag", "type", "post-it"];
const REPEATABLE = new Set(["name", "fullname", "mangling", "annotation", "tag", "type", "post-it"]);

function decodeOrNull(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

/** Query pairs, strictly decoded (null when an encoding is malformed); `api-key` is left out. */
function queryPairs(query: string): [string, string][] | null {
  const pairs: [string, string][] = [];
  for (const part of query.split("&").filter((p) => p !== "")) {
    const eq = part.indexOf("=");
    const name = decodeOrNull(eq < 0 ? part : part.slice(0, eq));
    const value = decodeOrNull(eq < 0 ? "" : part.slice(eq + 1));
    if (name === null || value === null) return null;
    if (name !== "api-key") pairs.push([name, value]);
  }
  return pairs;
}

export function toolCallFor(pathAndQuery: string): ToolCall | null {
  const q = pathAndQuery.indexOf("?");
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const pairs = queryPairs(q < 0 ? "" : pathAndQuery.slice(q + 1));
  const m = /^\/rest\/applications\/([^/]+)(\/.*)$/.exec(path);
  if (!pairs || !m) return null;
  const application = decodeOrNull(m[1].replace(/\+/g, "%2B"));
  if (application === null) return null;
  const values = new Map<string, string[]>();
  for (const [name, value] of pairs) values.set(name, [...(values.get(name) ?? []), value]);
  const single = (name: string) => (values.get(name)?.length === 1 ? values.get(name)![0] : null);
  const known = (...names: string[]) => [...values.keys()].every((n) => names.includes(n));
  const selects = values.get("select")?.map((s) => s.toLowerCase()) ?? [];
  const rest = m[2];
  /**
   * The arguments `limit` and `skip` give a paged tool, or null when the call is not the route's:
   * not whole numbers, or no limit or one past the tool's own cap (the tool answers its own error there).
   */
  const paged = (): Record<string, unknown> | null => {
    const args: Record<string, unknown> = { application };
    for (const name of ["limit", "skip"]) {
      if (!values.has(name)) continue;
      const n = integer(single(name) ?? "");
      if (n === null) return null;
      args[name] = n;
    }
    return args.limit === undefined || (args.limit as number) > MAX_TOOL_LIMIT ? null : args;
  };

  if (rest === "/objects") {
    if (!known("limit", "skip", "operator", "searchtype", "select", "date", ...FILTERS)) return null;
    const args = paged();
    if (!args) return null;
    for (const name of FILTERS) {
      const list = values.get(name);
      if (!list) continue;
      if (list.length > 1 && !REPEATABLE.has(name)) return null;
      args[name.replace("-", "_")] = list.length === 1 ? list[0] : list;
    }
    for (const [name, allowed] of [
      ["operator", ["contains", "equals", "startswith", "endswith"]],
      ["searchtype", ["all", "internal", "external"]],
    ] as const) {
      if (!values.has(name)) continue;
      const v = single(name)?.toLowerCase();
      if (v === undefined || !(allowed as readonly string[]).includes(v)) return null;
      args[name] = v;
    }
    if (values.has("select")) {
      if (selects.length !== 1 || selects[0] !== "source-locations") return null;
      args.withSourceLocations = true;
    }
    if (values.has("date")) {
      if (single("date") === null) return null;
      args.date = single("date");
    }
    return { name: "find_objects", arguments: args, unwrap: withoutNextSkip };
  }

  // Every tool about one object or graph takes date as the route does.
  const args: Record<string, unknown> = { application };
  if (values.has("date")) {
    if (single("date") === null) return null;
    args.date = single("date");
  }
  const number = (name: string, as = name): boolean => {
    if (!values.has(name)) return true;
    const n = integer(single(name) ?? "");
    if (n === null) return false;
    args[as] = n;
    return true;
  };
  const escalatedAndSelects = (): boolean => {
    if (new Set(selects).size !== selects.length || selects.some((s) => s !== "parent" && s !== "source-locations"))
      return false;
    if (values.has("includeEscalated")) {
      const v = single("includeEscalated")?.toLowerCase();
      if (v !== "true" && v !== "false") return false;
      args.includeEscalated = v === "true";
    }
    if (selects.includes("parent")) args.withParent = true;
    if (selects.includes("source-locations")) args.withSourceLocations = true;
    return true;
  };

  const object = /^\/objects\/([0-9]+)(\/callees|\/callers|\/start-end-points|\/call-hierarchy|\/paths)?$/.exec(rest);
  if (object) {
    const [, id, sub] = object;
    args.id = id;
    if (sub === undefined) {
      if (
        !known("select", "date") ||
        (values.has("select") && (selects.length !== 1 || selects[0] !== "source-locations"))
      )
        return null;
      if (values.has("select")) args.withSourceLocations = true;
      return { name: "get_object", arguments: args, unwrap: whole };
    }
    if (sub === "/callees" || sub === "/callers") {
      if (!known("select", "includeEscalated", "date") || !escalatedAndSelects()) return null;
      return sub === "/callees"
        ? { name: "list_callees", arguments: args, unwrap: (s) => s.callees }
        : { name: "list_callers", arguments: args, unwrap: (s) => s.callers };
    }
    if (sub === "/call-hierarchy") {
      if (!known("direction", "hops", "linkType", "limit", "date") || !number("hops") || !number("limit")) return null;
      const direction = single("direction")?.toLowerCase();
      if (direction !== "callees" && direction !== "callers" && direction !== "both") return null;
      args.direction = direction;
      if (values.has("linkType")) args.linkTypes = values.get("linkType");
      return { name: "get_call_hierarchy", arguments: args, unwrap: whole };
    }
    if (sub === "/paths") {
      const to = single("to");
      if (!known("to", "hops", "limit", "date") || to === null || !/^[0-9]+$/.test(to)) return null;
      if (!number("hops") || !number("limit")) return null;
      args.to = to;
      return { name: "find_paths", arguments: args, unwrap: whole };
    }
    if (!known("hops", "date") || !number("hops")) return null;
    return { name: "get_start_end_points", arguments: args, unwrap: whole };
  }

  const flows = /^\/(transactions|data-graphs)(?:\/([0-9]+)\/graph)?$/.exec(rest);
  if (flows) {
    const [, kind, id] = flows;
    args.kind = kind;
    if (id !== undefined) {
      if (!known("limit", "date") || !number("limit")) return null;
      args.id = id;
      return { name: "get_transaction_graph", arguments: args, unwrap: whole };
    }
    // The tool's limit has a default where the route requires one: a missing limit is not expressed.
    if (!known("name", "limit", "skip", "date") || !values.has("limit") || !number("limit") || !number("skip"))
      return null;
    if (values.has("name")) {
      if (single("name") === null) return null;
      args.name = single("name");
    }
    return { name: "list_transactions", arguments: args, unwrap: whole };
  }

  const level = /^\/levels\/([0-9]+)\/(nodes|graph)$/.exec(rest);
  if (level) {
    const n = integer(level[1]);
    if (n === null) return null;
    if (level[2] === "graph")
      return known()
        ? { name: "get_level_graph", arguments: { application, level: n, full: true }, unwrap: whole }
        : null;
    if (!known("name", "_id", "select") || selects.length !== 1 || selects[0] !== "children") return null;
    const args: Record<string, unknown> = { application, level: n };
    if (values.has("name")) {
      if (single("name") === null) return null;
      args.name = single("name");
    }
    if (values.has("_id")) {
      const id = integer(single("_id") ?? "");
      if (id === null) return null;
      args._id = id;
    }
    return { name: "list_level_nodes", arguments: args, unwrap: (s) => s.nodes };
  }

  if (rest === "/changes") {
    if (!known("from", "to", "status", "limit", "skip")) return null;
    const args = paged();
    if (!args) return null;
    for (const name of ["from", "to"]) {
      if (!values.has(name)) continue;
      if (single(name) === null) return null;
      args[name] = single(name);
    }
    const statuses = values.get("status")?.map((s) => s.toLowerCase());
    if (statuses?.some((s) => !["added", "deleted", "modified"].includes(s))) return null;
    if (statuses) args.status = statuses;
    return { name: "list_changes", arguments: args, unwrap: whole };
  }

  const file = /^\/files\/(-?[0-9]+)$/.exec(rest);
  if (file) {
    if (!known("startLine", "endLine", "date")) return null;
    const args: Record<string, unknown> = { application, fileId: file[1] };
    for (const name of ["startLine", "endLine"]) {
      if (!values.has(name)) continue;
      const n = integer(single(name) ?? "");
      if (n === null) return null;
      args[name] = n;
    }
    if (values.has("date")) {
      if (single("date") === null) return null;
      args.date = single("date");
    }
    return { name: "read_source", arguments: args, unwrap: whole };
  }
  return null;
}
