// @module Runs worked request/answer cases (test/fixtures/examples/requests.json shape) against any fetch function.

export interface RequestCase {
  request: string;
  method?: string;
  status: number;
  body?: unknown;
  code?: string;
  note?: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Level answers leave out volatile `_id`s: drop them everywhere. */
function withoutIds(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== "_id")
        .map(([k, v]) => [k, withoutIds(v)]),
    );
  return value;
}

const nameKey = (n: { name?: string }) => [n.name!.toLowerCase(), n.name!] as const;
const byName = (a: { name?: string }, b: { name?: string }) => {
  const [la, na] = nameKey(a);
  const [lb, nb] = nameKey(b);
  return la < lb ? -1 : la > lb ? 1 : na < nb ? -1 : na > nb ? 1 : 0;
};
const tieKey = (v: Json) => JSON.stringify(v);

/**
 * Nodes that tie on name may come in either order (their order follows `_id`): sort each run of
 * equal names by content, after checking the whole list is in name order.
 */
function canonicalLevels(path: string, value: Json): Json {
  const isLevel = /\/levels\/\d+\/(nodes|graph)/.test(path);
  if (!isLevel) return value;
  const stripped = withoutIds(value) as Json;
  const settle = (list: Json[], key: (item: Json) => { name?: string }) => {
    for (let i = 1; i < list.length; i++)
      if (byName(key(list[i - 1]), key(list[i])) > 0) throw new Error(`${path}: not in name order at ${i}`);
    return [...list].sort(
      (a, b) => byName(key(a), key(b)) || (tieKey(a) < tieKey(b) ? -1 : tieKey(a) > tieKey(b) ? 1 : 0),
    );
  };
  if (Array.isArray(stripped)) return settle(stripped, (n) => n as { name: string });
  const graph = stripped as { nodes: Json[]; links: Json[] };
  const linkKey = (l: Json) => {
    const { origin, target } = l as { origin: { name: string }; target: { name: string } };
    return { name: `${origin.name.toLowerCase()}\u0000${target.name.toLowerCase()}` };
  };
  return { nodes: settle(graph.nodes, (n) => n as { name: string }), links: settle(graph.links, linkKey) };
}

export interface CaseOutcome {
  case: RequestCase;
  status: number;
  body: unknown;
  problems: string[];
}

/** Sends one case through `fetcher` and lists every way the answer differs from the worked one. */
export async function runCase(
  fetcher: (request: Request) => Promise<Response>,
  base: string,
  c: RequestCase,
  substitute: (path: string) => Promise<string> = async (p) => p,
): Promise<CaseOutcome> {
  const space = c.request.indexOf(" ");
  const [method, rawPath] =
    space > 0 ? [c.request.slice(0, space), c.request.slice(space + 1)] : [c.method ?? "GET", c.request];
  const path = await substitute(rawPath);
  const response = await fetcher(new Request(base + path, { method: c.method ?? method }));
  const text = await response.text();
  const problems: string[] = [];
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    problems.push(`body is not JSON: ${text.slice(0, 200)}`);
  }
  if (response.status !== c.status)
    problems.push(`status ${response.status}, expected ${c.status}: ${text.slice(0, 300)}`);
  if (!(response.headers.get("content-type") ?? "").startsWith("application/json") && method !== "HEAD")
    problems.push(`content-type ${response.headers.get("content-type")}`);
  if (c.code !== undefined && (body as { code?: string } | undefined)?.code !== c.code)
    problems.push(`code ${(body as { code?: string })?.code}, expected ${c.code}`);
  if (c.body !== undefined && body !== undefined) {
    try {
      const actual = JSON.stringify(canonicalLevels(path, body as Json));
      const expected = JSON.stringify(canonicalLevels(path, c.body as Json));
      if (actual !== expected) problems.push(`body differs:\n  got      ${actual}\n  expected ${expected}`);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return { case: c, status: response.status, body, problems };
}

/** Replaces `{_id of <level>/<fullName>}` in a path by the node's volatile id, looked up in the level graph. */
export function idSubstitution(fetcher: (request: Request) => Promise<Response>, base: string) {
  return async (path: string): Promise<string> => {
    const placeholders = [...path.matchAll(/\{_id of (\d)\/([^}]*)\}/g)];
    for (const [placeholder, level, fullName] of placeholders) {
      const app = /^\/rest\/applications\/([^/]+)\//.exec(path)![1];
      const graph = (await (
        await fetcher(new Request(`${base}/rest/applications/${app}/levels/${level}/graph`))
      ).json()) as { nodes: { _id: number; fullName: string }[] };
      const node = graph.nodes.find((n) => n.fullName === decodeURIComponent(fullName));
      if (!node) throw new Error(`no level-${level} node with fullName ${fullName}`);
      path = path.replace(placeholder, String(node._id));
    }
    return path;
  };
}
