// @module Conformance check: asks the impact routes many varied questions and compares each answer with the plain evaluator.
import { isDeepStrictEqual } from "node:util";
import { type Analysis, changes, fileLines, type Obj, Reference } from "./impact-reference.ts";

export type Fetcher = (path: string) => Promise<{ status: number; body: unknown }>;

export interface Difference {
  request: string;
  expected: unknown;
  got: unknown;
}

/** A deterministic pseudo-random sequence, so a run is repeatable. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `versions` oldest first, all of one application. */
export async function checkImpact(
  fetch: Fetcher,
  application: string,
  versions: Analysis[],
  options: { objectsPerVersion: number; seed?: number },
): Promise<{ requests: number; differences: Difference[] }> {
  const rnd = random(options.seed ?? 7);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const differences: Difference[] = [];
  let requests = 0;
  const base = `/rest/applications/${encodeURIComponent(application)}`;
  const ask = async (path: string, expected: unknown) => {
    requests++;
    const { status, body } = await fetch(base + path);
    let got: unknown = body;
    if (status !== 200) {
      const problem = body as { code?: string; parameter?: string };
      // Which parameter a 404 names is the server's to say, but for `to` on paths, which the spec fixes.
      got = {
        status,
        error: problem.code + (problem.code === "object_not_found" && problem.parameter === "to" ? ":to" : ""),
      };
    }
    if (!isDeepStrictEqual(got, expected)) differences.push({ request: path, expected, got });
  };

  const first = versions[0];
  const beforeFirst = new Date(Date.parse(first.analyzedAt) - 1000).toISOString();
  const someId = first.objects[0].id;
  const noAnalysis = { status: 404, error: "no_analysis_at_date" };
  for (const route of [
    `/objects/${someId}/callers`,
    `/objects/${someId}/call-hierarchy?direction=both`,
    `/objects/${someId}/paths?to=${someId}`,
    "/transactions?limit=5",
    "/data-graphs?limit=5",
  ])
    await ask(`${route}${route.includes("?") ? "&" : "?"}date=${beforeFirst}`, noAnalysis);

  for (const [index, a] of versions.entries()) {
    const ref = new Reference(a);
    const date = `date=${encodeURIComponent(a.analyzedAt)}`;
    const linkTypes = [...new Set(a.links.map((l) => l.type))].sort();
    const callerCount = new Map<string, number>();
    for (const l of a.links) callerCount.set(l.to, (callerCount.get(l.to) ?? 0) + 1);
    const busiest = [...callerCount.entries()]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 5)
      .map(([id]) => id);
    const escalatedEnds = a.links
      .filter((l) => l.escalated === true)
      .slice(0, 5)
      .flatMap((l) => [l.to, l.from]);
    // Objects called by one caller through both a direct and an escalated link: where includeEscalated matters.
    const direct = new Set(a.links.filter((l) => l.escalated !== true).map((l) => `${l.from} ${l.to}`));
    const mixed = a.links.filter((l) => l.escalated === true && direct.has(`${l.from} ${l.to}`)).map((l) => l.to);
    const starts = a.objects.filter((o) => o.role === "start");
    const ends = a.objects.filter((o) => o.role === "end");
    const ids = [
      ...busiest,
      ...escalatedEnds,
      ...mixed.slice(0, 10),
      ...starts.slice(0, 3).map((o) => o.id),
      ...ends.slice(0, 3).map((o) => o.id),
      ...Array.from({ length: options.objectsPerVersion }, () => pick(a.objects).id),
      "999999999999999999",
    ];

    for (const id of ids) {
      for (const inc of [false, true])
        await ask(`/objects/${id}/callers?includeEscalated=${inc}&${date}`, ref.callers(id, inc));
      const select = pick([{ parent: true }, { sourceLocations: true }, { parent: true, sourceLocations: true }]);
      const selectParams = `${select.parent ? "&select=parent" : ""}${select.sourceLocations ? "&select=source-locations" : ""}`;
      await ask(`/objects/${id}/callers?includeEscalated=true${selectParams}&${date}`, ref.callers(id, true, select));
      const direction = pick(["callees", "callers", "both"]);
      const hops = 1 + Math.floor(rnd() * 5);
      const types = rnd() < 0.3 && linkTypes.length > 0 ? [pick(linkTypes)] : null;
      const limit = pick([1, 3, 20, 1000]);
      const typeParams = types ? types.map((t) => `&linkType=${t}`).join("") : "";
      await ask(
        `/objects/${id}/call-hierarchy?direction=${direction}&hops=${hops}&limit=${limit}${typeParams}&${date}`,
        ref.callHierarchy(id, direction, hops, types, limit),
      );
      const to = rnd() < 0.1 ? id : pick(a.objects).id;
      const reachable = ref.callHierarchy(id, "callees", 5, null, 10000) as { nodes?: Obj[] };
      const near = reachable.nodes && reachable.nodes.length > 1 ? pick(reachable.nodes).id : to;
      for (const target of [to, near]) {
        const pathHops = 1 + Math.floor(rnd() * 8);
        const pathLimit = pick([1, 2, 10, 100]);
        await ask(
          `/objects/${id}/paths?to=${target}&hops=${pathHops}&limit=${pathLimit}&${date}`,
          ref.paths(id, target, pathHops, pathLimit),
        );
      }
    }
    // `date` is an instant: the same one in UTC selects this version, a second earlier the one before.
    const instant = Date.parse(a.analyzedAt);
    const probe = ids[0];
    await ask(
      `/objects/${probe}/call-hierarchy?direction=both&date=${new Date(instant).toISOString()}`,
      ref.callHierarchy(probe, "both", 3, null, 1000),
    );
    if (index > 0)
      await ask(
        `/objects/${probe}/call-hierarchy?direction=both&date=${new Date(instant - 1000).toISOString()}`,
        new Reference(versions[index - 1]).callHierarchy(probe, "both", 3, null, 1000),
      );
    await ask(`/objects/${someId}/paths?to=999999999999999999&${date}`, ref.paths(someId, "999999999999999999", 8, 10));

    for (const [role, list, key] of [
      ["start", "transactions", "Transactions"],
      ["end", "data-graphs", "DataGraphs"],
    ] as const) {
      const points = role === "start" ? starts : ends;
      const names = [null, "", ...points.slice(0, 3).map((o) => o.name.slice(1, 4).toUpperCase())];
      for (const name of names)
        for (const [limit, skip] of [
          [0, 0],
          [3, 0],
          [5, 2],
          [10000, 0],
          [10, 100000],
        ]) {
          const { total, items } = ref.points(role, name, limit, skip);
          const q = name === null ? "" : `name=${encodeURIComponent(name)}&`;
          const listKey = key.charAt(0).toLowerCase() + key.slice(1);
          await ask(`/${list}?${q}limit=${limit}&skip=${skip}&${date}`, { [`total${key}`]: total, [listKey]: items });
        }
      for (const o of [...points.slice(0, 4), ...Array.from({ length: 3 }, () => pick(points)).filter(Boolean)])
        for (const limit of [1, 5, 1000])
          await ask(`/${list}/${o.id}/graph?limit=${limit}&${date}`, ref.pointGraph(role, o.id, limit));
      const notPoint = a.objects.find((o) => o.role !== role);
      if (notPoint) await ask(`/${list}/${notPoint.id}/graph?${date}`, ref.pointGraph(role, notPoint.id, 1000));
    }

    const statusSets = [["added", "deleted", "modified"], ["added"], ["deleted", "modified"], ["modified"]];
    for (const older of versions.slice(0, index + 1)) {
      const pairs: [string, Analysis][] = [
        [`from=${encodeURIComponent(older.analyzedAt)}&to=${encodeURIComponent(a.analyzedAt)}`, older],
      ];
      for (const [q, from] of pairs)
        for (const statuses of statusSets)
          for (const [limit, skip] of [
            [0, 0],
            [7, 0],
            [5, 3],
            [10000, 0],
          ]) {
            const st = statuses.length === 3 ? "" : statuses.map((s) => `&status=${s}`).join("");
            await ask(`/changes?${q}${st}&limit=${limit}&skip=${skip}`, changes(from, a, statuses, limit, skip));
          }
    }
    if (index === 0) {
      // No analysis before the first: changes has nothing to compare it with.
      await ask(`/changes?to=${encodeURIComponent(a.analyzedAt)}&limit=5`, noAnalysis);
      await ask(`/changes?from=${beforeFirst}&limit=5`, noAnalysis);
      await ask(`/changes?to=${beforeFirst}&limit=5`, noAnalysis);
    }
    if (index > 0) {
      await ask(
        `/changes?to=${encodeURIComponent(a.analyzedAt)}&limit=20`,
        changes(versions[index - 1], a, statusSets[0], 20, 0),
      );
      // `from` later than `to`: the spec compares as given.
      const later = a;
      const earlier = versions[index - 1];
      await ask(
        `/changes?from=${encodeURIComponent(later.analyzedAt)}&to=${encodeURIComponent(earlier.analyzedAt)}&limit=20`,
        changes(later, earlier, statusSets[0], 20, 0),
      );
    }

    const files = [
      ...a.files.slice(0, 3),
      ...a.files.filter((f) => f.text === "").slice(0, 2),
      ...Array.from({ length: 3 }, () => pick(a.files)).filter(Boolean),
    ];
    for (const f of files)
      for (const [s, e] of [
        [undefined, undefined],
        [1, 1],
        [2, 5],
        [3, 100000],
        [undefined, 2],
        [4, undefined],
        [50, 60],
        [5, 2],
      ]) {
        const q = [s !== undefined ? `startLine=${s}` : "", e !== undefined ? `endLine=${e}` : "", date].filter(
          Boolean,
        );
        await ask(`/files/${f.id}?${q.join("&")}`, fileLines(a, f.id, s, e));
      }
    await ask(`/files/987654321?${date}`, fileLines(a, "987654321"));
  }
  return { requests, differences };
}
