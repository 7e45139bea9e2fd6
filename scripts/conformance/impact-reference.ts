// @module Plain evaluator of the impact routes (spec impact.md §2–§7) over analysis records, for conformance checks.
import { readFileSync } from "node:fs";

export interface Obj {
  id: string;
  name: string;
  fullName: string;
  type: string;
  typeId: string;
  role?: "start" | "end" | null;
  checksum?: string;
  parent?: string | null;
  sourceLocations?: { fileId: string; startLine: number; endLine: number }[];
}
export interface Link {
  from: string;
  to: string;
  type: string;
  escalated?: boolean | null;
}
export interface Analysis {
  application: string;
  analyzedAt: string;
  objects: Obj[];
  links: Link[];
  files: { id: string; path: string; text?: string }[];
}

/** Reads a `.json` or `.ndjson` analysis into plain arrays. */
export function readAnalysis(path: string): Analysis {
  const text = readFileSync(path, "utf8").replace(/^\uFEFF/, "");
  if (path.toLowerCase().endsWith(".json")) {
    const doc = JSON.parse(text);
    return {
      application: doc.application,
      analyzedAt: doc.analyzedAt,
      objects: doc.objects,
      links: doc.links ?? [],
      files: doc.files ?? [],
    };
  }
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const header = JSON.parse(lines[0]);
  const a: Analysis = {
    application: header.application,
    analyzedAt: header.analyzedAt,
    objects: [],
    links: [],
    files: [],
  };
  for (const line of lines.slice(1)) {
    const r = JSON.parse(line);
    if (r.kind === "object") a.objects.push(r);
    else if (r.kind === "link") a.links.push(r);
    else if (r.kind === "file") a.files.push(r);
  }
  return a;
}

const cmpId = (a: string, b: string) => (a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0);
const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const byName = (a: Obj, b: Obj) =>
  cmpStr(a.name.toLowerCase(), b.name.toLowerCase()) || cmpStr(a.name, b.name) || cmpId(a.id, b.id);

const item = (o: Obj) => ({ id: o.id, name: o.name, fullName: o.fullName, type: o.type, typeId: o.typeId });
const err = (status: number, code: string) => ({ status, error: code });

export class Reference {
  readonly byId = new Map<string, Obj>();
  readonly qualifying: Link[];
  readonly a: Analysis;
  constructor(a: Analysis) {
    this.a = a;
    for (const o of a.objects) this.byId.set(o.id, o);
    this.qualifying = a.links.filter((l) => l.escalated !== true);
  }

  callers(id: string, includeEscalated: boolean, select: { parent?: boolean; sourceLocations?: boolean } = {}) {
    if (!this.byId.has(id)) return err(404, "object_not_found");
    const groups = new Map<string, { caller: string; linkType: string; direct: boolean; escalated: boolean }>();
    for (const l of this.a.links.filter((l) => l.to === id)) {
      const key = `${l.from} ${l.type}`;
      const g = groups.get(key) ?? { caller: l.from, linkType: l.type, direct: false, escalated: false };
      if (l.escalated === true) g.escalated = true;
      else g.direct = true;
      groups.set(key, g);
    }
    // "Direct" is per caller (any of its links), escalation is judged over all its links to the object.
    const direct = new Set<string>(),
      escalated = new Set<string>();
    for (const g of groups.values()) {
      if (g.direct) direct.add(g.caller);
      if (g.escalated) escalated.add(g.caller);
    }
    const rows = [...groups.values()]
      .filter((g) => direct.has(g.caller) && (includeEscalated || !escalated.has(g.caller)))
      .map((g) => ({ o: this.byId.get(g.caller)!, linkType: g.linkType }));
    rows.sort((x, y) => byName(x.o, y.o) || cmpStr(x.linkType, y.linkType));
    return rows.map(({ o, linkType }) => {
      const parent = o.parent == null ? undefined : this.byId.get(o.parent);
      return {
        id: o.id,
        name: o.name,
        type: o.type,
        typeId: o.typeId,
        linkType,
        ...(select.parent ? { parent: parent ? { type: parent.type, typeId: parent.typeId } : null } : {}),
        ...(select.sourceLocations ? { sourceLocations: o.sourceLocations ?? [] } : {}),
      };
    });
  }

  /** Breadth-first distances from `id` over `links`, forward or backward, up to `hops`, not walking past `stop`. */
  private distances(id: string, links: Link[], forward: boolean, hops: number, stop?: (o: Obj) => boolean) {
    const adj = new Map<string, string[]>();
    for (const l of links) {
      const [a, b] = forward ? [l.from, l.to] : [l.to, l.from];
      if (!adj.has(a)) adj.set(a, []);
      adj.get(a)!.push(b);
    }
    const dist = new Map<string, number>([[id, 0]]);
    let frontier = [id];
    for (let d = 1; d <= hops && frontier.length > 0; d++) {
      const next: string[] = [];
      for (const x of frontier) {
        if (d > 1 && stop?.(this.byId.get(x)!)) continue;
        for (const y of adj.get(x) ?? []) if (!dist.has(y)) dist.set(y, d), next.push(y);
      }
      frontier = next;
    }
    return dist;
  }

  private graph(depth: Map<string, number>, links: Link[], limit: number, withRole: boolean) {
    const nodes = [...depth.keys()].map((id) => this.byId.get(id)!);
    nodes.sort((x, y) => depth.get(x.id)! - depth.get(y.id)! || byName(x, y));
    const kept = nodes.slice(0, limit);
    const keptIds = new Set(kept.map((o) => o.id));
    const seen = new Set<string>();
    const out: { from: string; to: string; linkType: string }[] = [];
    for (const l of links) {
      const k = `${l.from} ${l.to} ${l.type}`;
      if (seen.has(k) || !keptIds.has(l.from) || !keptIds.has(l.to)) continue;
      seen.add(k);
      out.push({ from: l.from, to: l.to, linkType: l.type });
    }
    out.sort((x, y) => cmpId(x.from, y.from) || cmpId(x.to, y.to) || cmpStr(x.linkType, y.linkType));
    return {
      totalNodes: nodes.length,
      truncated: nodes.length > limit,
      nodes: kept.map((o) => ({
        ...item(o),
        depth: depth.get(o.id)!,
        ...(withRole ? { role: o.role ?? null } : {}),
      })),
      links: out,
    };
  }

  callHierarchy(id: string, direction: string, hops: number, linkTypes: string[] | null, limit: number) {
    if (!this.byId.has(id)) return err(404, "object_not_found");
    const links = this.qualifying.filter((l) => !linkTypes || linkTypes.includes(l.type));
    const fwd = direction !== "callers" ? this.distances(id, links, true, hops) : new Map<string, number>();
    const bwd = direction !== "callees" ? this.distances(id, links, false, hops) : new Map<string, number>();
    const depth = new Map(fwd);
    for (const [k, d] of bwd) depth.set(k, Math.min(d, depth.get(k) ?? Infinity));
    const chosen = links.filter(
      (l) =>
        (fwd.has(l.from) && fwd.get(l.from)! < hops && depth.has(l.to) && direction !== "callers") ||
        (bwd.has(l.to) && bwd.get(l.to)! < hops && depth.has(l.from) && direction !== "callees"),
    );
    return this.graph(depth, chosen, limit, false);
  }

  paths(id: string, to: string, hops: number, limit: number) {
    if (!this.byId.has(id)) return err(404, "object_not_found");
    if (!this.byId.has(to)) return err(404, "object_not_found:to");
    const dist = this.distances(id, this.qualifying, true, hops);
    if (!dist.has(to)) return { length: null, totalPaths: 0, paths: [] };
    const L = dist.get(to)!;
    const toEnd = this.distances(to, this.qualifying, false, L);
    const types = (a: string, b: string) =>
      [...new Set(this.qualifying.filter((l) => l.from === a && l.to === b).map((l) => l.type))].sort(cmpStr);
    const out: string[][] = [];
    const walk = (path: string[]) => {
      if (out.length >= 100000) return;
      const x = path.at(-1)!;
      if (path.length - 1 === L) return void (x === to && out.push(path));
      const nexts = new Set(this.qualifying.filter((l) => l.from === x).map((l) => l.to));
      for (const y of nexts) if (dist.get(y) === path.length && toEnd.get(y) === L - path.length) walk([...path, y]);
    };
    walk([id]);
    const cmpPath = (p: string[], q: string[]) => {
      for (let i = 0; i < p.length; i++) {
        const c = byName(this.byId.get(p[i])!, this.byId.get(q[i])!);
        if (c) return c;
      }
      return 0;
    };
    out.sort(cmpPath);
    return {
      length: L,
      totalPaths: out.length,
      paths: out
        .slice(0, limit)
        .map((p) => p.map((x, i) => ({ ...item(this.byId.get(x)!), linkTypes: i === 0 ? [] : types(p[i - 1], x) }))),
    };
  }

  points(role: "start" | "end", name: string | null, limit: number, skip: number) {
    const all = this.a.objects
      .filter((o) => o.role === role && (name === null || o.name.toLowerCase().includes(name.toLowerCase())))
      .sort(byName);
    return { total: all.length, items: all.slice(skip, skip + limit).map(item) };
  }

  pointGraph(role: "start" | "end", id: string, limit: number) {
    const o = this.byId.get(id);
    if (!o || o.role !== role) return err(404, role === "start" ? "transaction_not_found" : "data_graph_not_found");
    const other = role === "start" ? "end" : "start";
    const forward = role === "start";
    const depth = this.distances(id, this.qualifying, forward, Number.MAX_SAFE_INTEGER, (x) => x.role === other);
    const walked = (x: string) => x === id || this.byId.get(x)!.role !== other;
    const chosen = this.qualifying.filter(
      (l) => depth.has(l.from) && depth.has(l.to) && walked(forward ? l.from : l.to),
    );
    return this.graph(depth, chosen, limit, true);
  }
}

/** §6 over two analyses (`from` older or equal). */
export function changes(from: Analysis, to: Analysis, statuses: string[], limit: number, skip: number) {
  const before = new Map(from.objects.map((o) => [o.id, o]));
  const after = new Map(to.objects.map((o) => [o.id, o]));
  const rows: { o: Obj; status: string }[] = [];
  if (from !== to) {
    for (const o of to.objects) {
      const b = before.get(o.id);
      if (!b) rows.push({ o, status: "Added" });
      else if (b.checksum != null && o.checksum != null && b.checksum !== o.checksum)
        rows.push({ o, status: "Modified" });
    }
    for (const o of from.objects) if (!after.has(o.id)) rows.push({ o, status: "Deleted" });
  }
  const totals = { added: 0, deleted: 0, modified: 0 };
  for (const r of rows) totals[r.status.toLowerCase() as keyof typeof totals]++;
  const asked = rows.filter((r) => statuses.includes(r.status.toLowerCase())).sort((x, y) => byName(x.o, y.o));
  return {
    from: from.analyzedAt,
    to: to.analyzedAt,
    totals,
    totalObjects: asked.length,
    objects: asked.slice(skip, skip + limit).map((r) => ({ ...item(r.o), status: r.status })),
  };
}

/** §7: lines of a file's text, a line ending after `\n`. */
export function fileLines(a: Analysis, fileId: string, startLine?: number, endLine?: number) {
  const f = a.files.find((x) => x.id === fileId);
  // A range upside down is refused (docs/api.md: the spec leaves it open).
  if (startLine !== undefined && endLine !== undefined && endLine < startLine) return err(400, "invalid_parameter");
  if (!f || f.text === undefined) return err(404, "file_not_found");
  const lines = f.text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const s = startLine ?? 1;
  const e = Math.min(endLine ?? lines.length, lines.length);
  return {
    fileId,
    path: f.path,
    startLine: s,
    endLine: e,
    totalLines: lines.length,
    text: lines.slice(s - 1, e).join(""),
  };
}
