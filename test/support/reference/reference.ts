// @module Reference implementation: find objects, callees, callers, start/end points, call hierarchy, paths, transactions and data graphs straight from docs/api.md over the raw analysis JSON.
//
// Deliberately naive: linear scans, no indexes, no snapshot code. It reads the analysis document as
// written (docs/analysis-format.md), applies the defaults of that format, and answers with the JSON the
// API returns. Its only job is to be obviously right.

export interface RefLocation {
  fileId: string;
  startLine: number;
  endLine: number;
}

export interface RefObject {
  id: string;
  name: string;
  fullName: string;
  type: string;
  typeId: string;
  language?: string | null;
  filePath?: string | null;
  mangling?: string;
  external?: boolean;
  annotations?: string[] | null;
  tags?: string[];
  parent?: string | null;
  role?: "start" | "end" | null;
  sourceLocations?: RefLocation[];
}

export interface RefAnalysis {
  objects: readonly RefObject[] | readonly Record<string, unknown>[];
  links?: readonly { from: string; to: string; type: string; escalated?: boolean }[];
  postIts?: readonly { object: string; title: string; text?: string }[];
}

export type Operator = "contains" | "equals" | "startswith" | "endswith";
export type SearchType = "all" | "internal" | "external";
export const TEXT_FILTERS = [
  "name",
  "fullname",
  "type",
  "filepath",
  "mangling",
  "annotation",
  "tag",
  "post-it",
] as const;
export type TextFilter = (typeof TEXT_FILTERS)[number];

export interface FindQuery {
  filters: Partial<Record<TextFilter, string[]>>;
  operator?: Operator;
  searchtype?: SearchType;
  skip?: number;
  limit: number;
  withLocations?: boolean;
}

const objectsOf = (analysis: RefAnalysis) => analysis.objects as readonly RefObject[];

// ---- order (docs/api.md#order) -------------------------------------------------------------------

/** Code-unit comparison (JavaScript `<` on strings compares UTF-16 code units). */
const units = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Numeric id order: shorter decimal string first, then lexicographic. */
const byId = (a: string, b: string): number => a.length - b.length || units(a, b);

/** "Sorted by name": lower-cased name, then name, then id. */
export function byName(a: { name: string; id: string }, b: { name: string; id: string }): number {
  return units(a.name.toLowerCase(), b.name.toLowerCase()) || units(a.name, b.name) || byId(a.id, b.id);
}

// ---- text matching (docs/api.md#text-matching) ---------------------------------------------------

export function textMatches(field: string, value: string, operator: Operator): boolean {
  const f = field.toLowerCase();
  const v = value.toLowerCase();
  switch (operator) {
    case "contains":
      return f.includes(v);
    case "equals":
      return f === v;
    case "startswith":
      return f.startsWith(v);
    case "endswith":
      return f.endsWith(v);
  }
}

/** The values a filter looks at on one object: [] for a null field (a null field never matches). */
function fieldValues(analysis: RefAnalysis, o: RefObject, filter: TextFilter): string[] {
  switch (filter) {
    case "name":
      return [o.name];
    case "fullname":
      return [o.fullName];
    case "type":
      return [o.type];
    case "filepath":
      return o.filePath === undefined || o.filePath === null ? [] : [o.filePath];
    case "mangling":
      return [o.mangling ?? ""];
    case "annotation":
      return o.annotations ?? [];
    case "tag":
      return o.tags ?? [];
    case "post-it":
      return (analysis.postIts ?? []).filter((p) => p.object === o.id).map((p) => p.title);
  }
}

/** tag and post-it always use contains; the operator applies to the other filters. */
const operatorFor = (filter: TextFilter, operator: Operator): Operator =>
  filter === "tag" || filter === "post-it" ? "contains" : operator;

export function objectMatches(analysis: RefAnalysis, o: RefObject, query: FindQuery): boolean {
  const operator = query.operator ?? "contains";
  const searchtype = query.searchtype ?? "all";
  const external = o.external ?? false;
  if (searchtype === "internal" && external) return false;
  if (searchtype === "external" && !external) return false;
  for (const filter of TEXT_FILTERS) {
    const values = query.filters[filter];
    if (values === undefined || values.length === 0) continue;
    const fields = fieldValues(analysis, o, filter);
    // OR over the values of one parameter and the elements of an array field; AND across parameters.
    if (!fields.some((f) => values.some((v) => textMatches(f, v, operatorFor(filter, operator))))) return false;
  }
  return true;
}

// ---- rendering (the answer tables of docs/api.md) ------------------------------------------------

function locationsOf(o: RefObject): RefLocation[] | undefined {
  return o.sourceLocations?.length
    ? o.sourceLocations.map((l) => ({ fileId: l.fileId, startLine: l.startLine, endLine: l.endLine }))
    : undefined;
}

export function renderObject(o: RefObject, withLocations = false): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: o.id,
    name: o.name,
    fullName: o.fullName,
    type: o.type,
    typeId: o.typeId,
    filePath: o.filePath ?? null,
    mangling: o.mangling ?? "",
    external: o.external ?? false,
    annotations: o.annotations ?? null,
    tags: o.tags ?? [],
  };
  const locations = withLocations ? locationsOf(o) : undefined;
  if (locations) out.sourceLocations = locations;
  return out;
}

const renderPoint = (o: RefObject) => ({ id: o.id, name: o.name, fullName: o.fullName, type: o.type });

// ---- find objects ---------------------------------------------------------------------------------

export function findObjects(
  analysis: RefAnalysis,
  query: FindQuery,
): { totalObjects: number; objects: Record<string, unknown>[] } {
  const matches = objectsOf(analysis)
    .filter((o) => objectMatches(analysis, o, query))
    .sort(byName);
  const skip = query.skip ?? 0;
  return {
    totalObjects: matches.length,
    objects: matches.slice(skip, skip + query.limit).map((o) => renderObject(o, query.withLocations)),
  };
}

// ---- callees (docs/api.md "Direct callees") ------------------------------------------------------

export function callees(
  analysis: RefAnalysis,
  id: string,
  options: { includeEscalated?: boolean; withParent?: boolean; withLocations?: boolean } = {},
): Record<string, unknown>[] {
  const byIdMap = new Map(objectsOf(analysis).map((o) => [o.id, o]));
  const outgoing = (analysis.links ?? []).filter((l) => l.from === id);
  const out: { callee: RefObject; linkType: string }[] = [];
  for (const callee of objectsOf(analysis)) {
    const links = outgoing.filter((l) => l.to === callee.id);
    if (links.length === 0) continue;
    const direct = links.some((l) => !(l.escalated ?? false));
    const anyEscalated = links.some((l) => l.escalated ?? false);
    // Never listed when reached only by escalated links; by default, only callees with no escalated link.
    if (!direct) continue;
    if (!options.includeEscalated && anyEscalated) continue;
    for (const linkType of new Set(links.map((l) => l.type))) out.push({ callee, linkType });
  }
  out.sort((a, b) => byName(a.callee, b.callee) || units(a.linkType, b.linkType));
  return out.map(({ callee, linkType }) => {
    const element: Record<string, unknown> = {
      id: callee.id,
      name: callee.name,
      type: callee.type,
      typeId: callee.typeId,
      linkType,
    };
    if (options.withParent) {
      const parent = callee.parent ? byIdMap.get(callee.parent) : undefined;
      element.parent = parent ? { type: parent.type, typeId: parent.typeId } : null;
    }
    const locations = options.withLocations ? locationsOf(callee) : undefined;
    if (locations) element.sourceLocations = locations;
    return element;
  });
}

// ---- start and end points (docs/api.md "Start and end points") ----------------------------------

/** Every object at distance ≤ hops from `origin` (origin included), following `step`. */
function within(origin: string, hops: number, step: (id: string) => string[]): Set<string> {
  const distance = new Map<string, number>([[origin, 0]]);
  let frontier = [origin];
  for (let d = 1; d <= hops; d++) {
    const next: string[] = [];
    for (const id of frontier)
      for (const n of step(id))
        if (!distance.has(n)) {
          distance.set(n, d);
          next.push(n);
        }
    frontier = next;
  }
  return new Set(distance.keys());
}

export function startEndPoints(
  analysis: RefAnalysis,
  id: string,
  hops: number,
): { startPoints: Record<string, unknown>[]; endPoints: Record<string, unknown>[] } {
  const links = analysis.links ?? [];
  const callersOf = (x: string) => links.filter((l) => l.to === x).map((l) => l.from);
  const calleesOf = (x: string) => links.filter((l) => l.from === x).map((l) => l.to);
  const upstream = within(id, hops, callersOf);
  const downstream = within(id, hops, calleesOf);
  const objects = objectsOf(analysis);
  return {
    startPoints: objects
      .filter((o) => o.role === "start" && upstream.has(o.id))
      .sort(byName)
      .map(renderPoint),
    endPoints: objects
      .filter((o) => o.role === "end" && downstream.has(o.id))
      .sort(byName)
      .map(renderPoint),
  };
}

// ---- impact (docs/api.md "Direct callers", "Call hierarchy", "Paths", "Transactions", "Data graphs") --

/** Callers: callees with the links reversed. */
export function callers(
  analysis: RefAnalysis,
  id: string,
  options: { includeEscalated?: boolean; withParent?: boolean; withLocations?: boolean } = {},
): Record<string, unknown>[] {
  const reversed = (analysis.links ?? []).map((l) => ({ ...l, from: l.to, to: l.from }));
  return callees({ ...analysis, links: reversed }, id, options);
}

const renderRef = (o: RefObject) => ({ id: o.id, name: o.name, fullName: o.fullName, type: o.type, typeId: o.typeId });

/** Links that are not escalated (of `types`, when given), each (from, to, type) once. */
function qualifying(analysis: RefAnalysis, types?: readonly string[]) {
  const seen = new Set<string>();
  return (analysis.links ?? []).filter((l) => {
    const key = `${l.from} ${l.to} ${l.type}`;
    if ((l.escalated ?? false) || (types && !types.includes(l.type)) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

type RefLink = { from: string; to: string; type: string };

/** Distances from `origin` along `next`, not expanding `stop`ped objects (but the origin) nor objects at `hops`. */
function distances(origin: string, hops: number, next: (id: string) => string[], stop: (id: string) => boolean) {
  const distance = new Map<string, number>([[origin, 0]]);
  let frontier = [origin];
  for (let d = 0; d < hops && frontier.length; d++) {
    const following: string[] = [];
    for (const id of frontier) {
      if (id !== origin && stop(id)) continue;
      for (const n of next(id))
        if (!distance.has(n)) {
          distance.set(n, d + 1);
          following.push(n);
        }
    }
    frontier = following;
  }
  return distance;
}

/** Nodes by depth then name, cut to `limit`; links between kept nodes by from, to (numeric), type. */
function graph(
  analysis: RefAnalysis,
  depth: Map<string, number>,
  links: RefLink[],
  limit: number,
  withRole: boolean,
): Record<string, unknown> {
  const byIdMap = new Map(objectsOf(analysis).map((o) => [o.id, o]));
  const nodes = [...depth.keys()]
    .map((id) => byIdMap.get(id)!)
    .sort((a, b) => depth.get(a.id)! - depth.get(b.id)! || byName(a, b));
  const kept = nodes.slice(0, limit);
  const keep = new Set(kept.map((o) => o.id));
  const unique = new Map<string, RefLink>();
  for (const l of links) if (keep.has(l.from) && keep.has(l.to)) unique.set(`${l.from} ${l.to} ${l.type}`, l);
  return {
    totalNodes: nodes.length,
    truncated: nodes.length > limit,
    nodes: kept.map((o) => ({
      ...renderRef(o),
      depth: depth.get(o.id),
      ...(withRole ? { role: o.role ?? null } : {}),
    })),
    links: [...unique.values()]
      .sort((a, b) => byId(a.from, b.from) || byId(a.to, b.to) || units(a.type, b.type))
      .map((l) => ({ from: l.from, to: l.to, linkType: l.type })),
  };
}

export function callHierarchy(
  analysis: RefAnalysis,
  id: string,
  query: { direction: "callees" | "callers" | "both"; hops: number; linkTypes: string[]; limit: number },
): Record<string, unknown> {
  const links = qualifying(analysis, query.linkTypes.length ? query.linkTypes : undefined);
  const forward = distances(
    id,
    query.hops,
    (x) => links.filter((l) => l.from === x).map((l) => l.to),
    () => false,
  );
  const backward = distances(
    id,
    query.hops,
    (x) => links.filter((l) => l.to === x).map((l) => l.from),
    () => false,
  );
  const depth = new Map<string, number>();
  const chosen: RefLink[] = [];
  if (query.direction !== "callers") {
    for (const [n, d] of forward) depth.set(n, d);
    chosen.push(...links.filter((l) => (forward.get(l.from) ?? Infinity) < query.hops));
  }
  if (query.direction !== "callees") {
    for (const [n, d] of backward) depth.set(n, Math.min(d, depth.get(n) ?? Infinity));
    chosen.push(...links.filter((l) => (backward.get(l.to) ?? Infinity) < query.hops));
  }
  return graph(analysis, depth, chosen, query.limit, false);
}

export function paths(
  analysis: RefAnalysis,
  id: string,
  to: string,
  query: { hops: number; limit: number },
): Record<string, unknown> {
  const links = qualifying(analysis);
  const byIdMap = new Map(objectsOf(analysis).map((o) => [o.id, o]));
  // Every simple path of at most `hops` links, by depth-first search: obviously right, slow, fine for tests.
  const found: string[][] = [];
  const walk = (path: string[]) => {
    const last = path[path.length - 1];
    if (last === to) return void found.push(path);
    if (path.length > query.hops) return;
    for (const next of new Set(links.filter((l) => l.from === last).map((l) => l.to)))
      if (!path.includes(next)) walk([...path, next]);
  };
  walk([id]);
  if (found.length === 0) return { length: null, totalPaths: 0, paths: [] };
  const length = Math.min(...found.map((p) => p.length - 1));
  const shortest = found
    .filter((p) => p.length - 1 === length)
    .sort((a, b) => {
      for (let i = 0; i < a.length; i++) {
        const c = byName(byIdMap.get(a[i])!, byIdMap.get(b[i])!);
        if (c) return c;
      }
      return 0;
    });
  return {
    length,
    totalPaths: Math.min(shortest.length, 100_000),
    paths: shortest.slice(0, query.limit).map((p) =>
      p.map((step, i) => ({
        ...renderRef(byIdMap.get(step)!),
        linkTypes:
          i === 0
            ? []
            : [...new Set(links.filter((l) => l.from === p[i - 1] && l.to === step).map((l) => l.type))].sort(units),
      })),
    ),
  };
}

export function flowList(
  analysis: RefAnalysis,
  role: "start" | "end",
  query: { name?: string; skip: number; limit: number },
): { total: number; points: Record<string, unknown>[] } {
  const matches = objectsOf(analysis)
    .filter((o) => o.role === role && (query.name === undefined || textMatches(o.name, query.name, "contains")))
    .sort(byName);
  return { total: matches.length, points: matches.slice(query.skip, query.skip + query.limit).map(renderRef) };
}

/** A transaction (role start, forward, not past end points) or a data graph (role end, backward, not past start points); null when `id` is no such point. */
export function flowGraph(
  analysis: RefAnalysis,
  role: "start" | "end",
  id: string,
  limit: number,
): Record<string, unknown> | null {
  const byIdMap = new Map(objectsOf(analysis).map((o) => [o.id, o]));
  if (byIdMap.get(id)?.role !== role) return null;
  const other = role === "start" ? "end" : "start";
  const links = qualifying(analysis);
  const forward = role === "start";
  const stop = (x: string) => byIdMap.get(x)?.role === other;
  const depth = distances(
    id,
    Number.POSITIVE_INFINITY,
    (x) => links.filter((l) => (forward ? l.from : l.to) === x).map((l) => (forward ? l.to : l.from)),
    stop,
  );
  const walked = (x: string) => depth.has(x) && (x === id || !stop(x));
  const chosen = links.filter((l) => depth.has(l.from) && depth.has(l.to) && walked(forward ? l.from : l.to));
  return graph(analysis, depth, chosen, limit, true);
}

// ---- requests -------------------------------------------------------------------------------------

/**
 * The reference answer to one GET request path (with query, without `date`) of find objects, callees,
 * callers, start-end-points, call hierarchy, paths, transactions and data graphs (lists and graphs),
 * or undefined for anything else (and for a transaction or data graph id that is not a point). Query values are decoded as forms are
 * (`+` is a space); enumeration values are matched case-insensitively.
 */
export function referenceAnswer(analysis: RefAnalysis, pathAndQuery: string): unknown {
  const q = pathAndQuery.indexOf("?");
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const params = [...new URLSearchParams(q < 0 ? "" : pathAndQuery.slice(q + 1))];
  const all = (name: string) => params.filter(([n]) => n === name).map(([, v]) => v);
  const one = (name: string) => all(name)[0];
  let m: RegExpExecArray | null;
  // The reference reads one analysis: a date could select another.
  if (one("date") !== undefined) return undefined;
  if (/^\/rest\/applications\/[^/]+\/objects$/.test(path)) {
    const filters: Partial<Record<TextFilter, string[]>> = {};
    for (const f of TEXT_FILTERS) if (all(f).length) filters[f] = all(f);
    return findObjects(analysis, {
      filters,
      operator: (one("operator")?.toLowerCase() ?? "contains") as Operator,
      searchtype: (one("searchtype")?.toLowerCase() ?? "all") as SearchType,
      skip: Number(one("skip") ?? 0),
      limit: Number(one("limit")),
      withLocations: one("select")?.toLowerCase() === "source-locations",
    });
  }
  if ((m = /^\/rest\/applications\/[^/]+\/objects\/([0-9]+)\/callees$/.exec(path))) {
    const select = all("select").map((s) => s.toLowerCase());
    return callees(analysis, m[1], {
      includeEscalated: one("includeEscalated")?.toLowerCase() === "true",
      withParent: select.includes("parent"),
      withLocations: select.includes("source-locations"),
    });
  }
  if ((m = /^\/rest\/applications\/[^/]+\/objects\/([0-9]+)\/start-end-points$/.exec(path)))
    return startEndPoints(analysis, m[1], Number(one("hops") ?? 1));
  if ((m = /^\/rest\/applications\/[^/]+\/objects\/([0-9]+)\/callers$/.exec(path))) {
    const select = all("select").map((s) => s.toLowerCase());
    return callers(analysis, m[1], {
      includeEscalated: one("includeEscalated")?.toLowerCase() === "true",
      withParent: select.includes("parent"),
      withLocations: select.includes("source-locations"),
    });
  }
  if ((m = /^\/rest\/applications\/[^/]+\/objects\/([0-9]+)\/call-hierarchy$/.exec(path)))
    return callHierarchy(analysis, m[1], {
      direction: one("direction").toLowerCase() as "callees" | "callers" | "both",
      hops: Number(one("hops") ?? 3),
      linkTypes: all("linkType"),
      limit: Number(one("limit") ?? 1000),
    });
  if ((m = /^\/rest\/applications\/[^/]+\/objects\/([0-9]+)\/paths$/.exec(path)))
    return paths(analysis, m[1], one("to"), { hops: Number(one("hops") ?? 8), limit: Number(one("limit") ?? 10) });
  if ((m = /^\/rest\/applications\/[^/]+\/(transactions|data-graphs)$/.exec(path))) {
    const { total, points } = flowList(analysis, m[1] === "transactions" ? "start" : "end", {
      name: one("name"),
      skip: Number(one("skip") ?? 0),
      limit: Number(one("limit")),
    });
    return m[1] === "transactions"
      ? { totalTransactions: total, transactions: points }
      : { totalDataGraphs: total, dataGraphs: points };
  }
  if ((m = /^\/rest\/applications\/[^/]+\/(transactions|data-graphs)\/([0-9]+)\/graph$/.exec(path)))
    return (
      flowGraph(analysis, m[1] === "transactions" ? "start" : "end", m[2], Number(one("limit") ?? 1000)) ?? undefined
    );
  return undefined;
}
