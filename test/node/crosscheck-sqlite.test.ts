// @module The cross-check's SQLite implementation on a hand-worked analysis: name order, operators, callees and callers with escalated links, call hierarchies, points, level graphs with shared names.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openReadOnly, type ServingDatabase } from "../../scripts/crosscheck/sqlite-db.ts";
import { buildDatabase } from "../../scripts/crosscheck/sqlite-load.ts";
import { answer } from "../../scripts/crosscheck/sqlite-server.ts";

// Five levels; two level-4 nodes are both "JSP", two level-5 nodes both "Page".
// Level-5 _ids in name order: 0 Frag (Y), 1 Page (…X##JSP##Page), 2 Page (…Y##JSP##Page).
const taxonomy = [
  { key: "S", level: 1, name: "Svc", parent: null },
  { key: "A", level: 2, name: "Apps", parent: "S" },
  { key: "X", level: 3, name: "X", parent: "A" },
  { key: "Y", level: 3, name: "Y", parent: "A" },
  { key: "XJ", level: 4, name: "JSP", parent: "X" },
  { key: "YJ", level: 4, name: "JSP", parent: "Y" },
  { key: "XP", level: 5, name: "Page", parent: "XJ" },
  { key: "YP", level: 5, name: "Page", parent: "YJ" },
  { key: "YF", level: 5, name: "Frag", parent: "YJ" },
];
// Name order: 2 "Alpha", 3 "alpha", 10 "alpha" (id 3 is shorter), 1 "beta", 4 "Gamma".
const objects = [
  { id: "1", name: "beta", fullName: "p.beta", type: "Java Method", typeId: "JV_METHOD", level5: "XP", role: "start" },
  {
    id: "2",
    name: "Alpha",
    fullName: "p.Alpha",
    type: "Java Class",
    typeId: "JV_CLASS",
    level5: "YP",
    language: "Java",
  },
  {
    id: "10",
    name: "alpha",
    fullName: "p.Alpha.alpha",
    type: "Java Method",
    typeId: "JV_METHOD",
    parent: "2",
    level5: "YF",
    role: "end",
  },
  {
    id: "3",
    name: "alpha",
    fullName: "db.alpha",
    type: "Table",
    typeId: "TABLE",
    external: true,
    level5: "YF",
    role: "end",
  },
  {
    id: "4",
    name: "Gamma",
    fullName: "p.Gamma",
    type: "Java Class",
    typeId: "JV_CLASS",
    filePath: "src/g.java",
    level5: "XP",
    tags: ["t"],
  },
];
const links = [
  { from: "1", to: "2", type: "CALL" },
  { from: "1", to: "10", type: "CALL", escalated: true },
  { from: "1", to: "10", type: "CALL" },
  { from: "1", to: "10", type: "CALL" }, // a duplicate: counts once
  { from: "1", to: "3", type: "USE", escalated: true },
  { from: "1", to: "4", type: "CALL" },
  { from: "1", to: "4", type: "ACCESS" },
  { from: "1", to: "4", type: "USE", escalated: true }, // 4 is direct, but not only direct
  { from: "4", to: "3", type: "ACCESS" },
  { from: "2", to: "10", type: "CALL" },
];

let dir: string;
let sql: ServingDatabase;
const get = (path: string) => answer(sql, new URL(`http://localhost/rest/applications/Hand%20Worked${path}`)) as never;
const ids = (path: string) => {
  const a = get(path) as { totalObjects: number; objects: { id: string }[] };
  return [a.totalObjects, a.objects.map((o) => o.id)];
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "crosscheck-sqlite-"));
  const lines = [
    { format: "appstruct.analysis/1", application: "Hand Worked", analyzedAt: "2026-01-01T00:00:00Z" },
    ...taxonomy.map((r) => ({ kind: "taxonomy", ...r })),
    ...links.map((r) => ({ kind: "link", ...r })), // before the objects: lines may come in any order
    ...objects.map((r) => ({ kind: "object", ...r })),
  ];
  await writeFile(join(dir, "a.ndjson"), lines.map((l) => JSON.stringify(l)).join("\n"));
  await buildDatabase(join(dir, "a.ndjson"), join(dir, "a.sqlite"), () => {});
  sql = openReadOnly(join(dir, "a.sqlite"));
});
afterAll(async () => {
  sql?.db.close();
  await rm(dir, { recursive: true, force: true });
});

describe("find objects", () => {
  test("name order, trigram contains, short contains and paging", () => {
    expect(ids("/objects?limit=10&name=ALP")).toEqual([3, ["2", "3", "10"]]);
    expect(ids("/objects?limit=10&name=a")).toEqual([5, ["2", "3", "10", "1", "4"]]);
    expect(ids("/objects?limit=1&skip=3&name=a")).toEqual([5, ["1"]]);
    expect(ids("/objects?limit=0&name=mm")).toEqual([1, []]);
    expect(ids("/objects?limit=2&skip=3")).toEqual([5, ["1", "4"]]);
  });

  test("equals, startswith, endswith, type, searchtype, filepath, OR within a filter", () => {
    expect(ids("/objects?limit=10&operator=equals&name=ALPHA")).toEqual([3, ["2", "3", "10"]]);
    expect(ids("/objects?limit=10&operator=startswith&name=al&name=GA")).toEqual([4, ["2", "3", "10", "4"]]);
    expect(ids("/objects?limit=10&operator=endswith&name=TA")).toEqual([1, ["1"]]);
    expect(ids("/objects?limit=10&name=alp&type=method")).toEqual([1, ["10"]]);
    expect(ids("/objects?limit=10&searchtype=external")).toEqual([1, ["3"]]);
    expect(ids("/objects?limit=10&filepath=G.JAVA")).toEqual([1, ["4"]]);
    expect(ids("/objects?limit=10&operator=equals&type=java")).toEqual([0, []]);
  });

  test("an object's fields", () => {
    expect((get("/objects?limit=1&name=gamma") as { objects: unknown[] }).objects).toEqual([
      {
        id: "4",
        name: "Gamma",
        fullName: "p.Gamma",
        type: "Java Class",
        typeId: "JV_CLASS",
        filePath: "src/g.java",
        mangling: "",
        external: false,
        annotations: null,
        tags: ["t"],
      },
    ]);
  });
});

test("characteristics: parent, status of a first analysis, language", () => {
  expect(get("/objects/10")).toEqual({
    id: "10",
    name: "alpha",
    fullName: "p.Alpha.alpha",
    mangling: "",
    type: "Java Method",
    typeId: "JV_METHOD",
    annotations: null,
    status: { id: "Added" },
    external: false,
    programmingLanguage: { name: null },
    parent: { id: "2", name: "Alpha", type: "Java Class", typeId: "JV_CLASS" },
  });
});

test("callees: one per (callee, link type); a callee with an escalated link only with includeEscalated, then with all its link types; escalated-only never", () => {
  const callees = (qs: string) =>
    (get(`/objects/1/callees${qs}`) as { id: string; linkType: string }[]).map((c) => `${c.id}:${c.linkType}`);
  expect(callees("")).toEqual(["2:CALL"]);
  expect(callees("?includeEscalated=true")).toEqual(["2:CALL", "10:CALL", "4:ACCESS", "4:CALL", "4:USE"]);
  expect((get("/objects/2/callees?select=parent") as unknown[])[0]).toEqual({
    id: "10",
    name: "alpha",
    type: "Java Method",
    typeId: "JV_METHOD",
    linkType: "CALL",
    parent: { type: "Java Class", typeId: "JV_CLASS" },
  });
});

test("callers: the mirror of callees, a caller judged across its link types", () => {
  const listed = (path: string) =>
    (get(path) as { id: string; linkType: string }[]).map((c) => `${c.id} ${c.linkType}`);
  // 1 calls 10 directly and through an escalated link; 2 only directly.
  expect(listed("/objects/10/callers")).toEqual(["2 CALL"]);
  expect(listed("/objects/10/callers?includeEscalated=true")).toEqual(["2 CALL", "1 CALL"]);
  // 1 reaches 3 only through an escalated link: never listed.
  expect(listed("/objects/3/callers?includeEscalated=true")).toEqual(["4 ACCESS"]);
  expect(listed("/objects/4/callers")).toEqual([]);
  expect(listed("/objects/4/callers?includeEscalated=true")).toEqual(["1 ACCESS", "1 CALL", "1 USE"]);
  expect((get("/objects/10/callers?select=parent") as unknown[])[0]).toEqual({
    id: "2",
    name: "Alpha",
    type: "Java Class",
    typeId: "JV_CLASS",
    linkType: "CALL",
    parent: null,
  });
});

test("call hierarchy: links not escalated, nodes by depth then name, links between kept nodes by numeric id", () => {
  const graph = (path: string) => {
    const a = get(path) as {
      totalNodes: number;
      truncated: boolean;
      nodes: { id: string; depth: number }[];
      links: { from: string; to: string; linkType: string }[];
    };
    return {
      total: a.totalNodes,
      truncated: a.truncated,
      nodes: a.nodes.map((n) => `${n.id}@${n.depth}`),
      links: a.links.map((l) => `${l.from}>${l.to} ${l.linkType}`),
    };
  };
  // 1 → 3 is escalated: 3 is reached through 4, a link further.
  expect(graph("/objects/1/call-hierarchy?direction=callees")).toEqual({
    total: 5,
    truncated: false,
    nodes: ["1@0", "2@1", "10@1", "4@1", "3@2"],
    links: ["1>2 CALL", "1>4 ACCESS", "1>4 CALL", "1>10 CALL", "2>10 CALL", "4>3 ACCESS"],
  });
  // Only the links of nodes less than `hops` away: none from 2 or 4.
  expect(graph("/objects/1/call-hierarchy?direction=callees&hops=1").links).toEqual([
    "1>2 CALL",
    "1>4 ACCESS",
    "1>4 CALL",
    "1>10 CALL",
  ]);
  expect(graph("/objects/1/call-hierarchy?direction=callees&limit=2")).toEqual({
    total: 5,
    truncated: true,
    nodes: ["1@0", "2@1"],
    links: ["1>2 CALL"],
  });
  expect(graph("/objects/3/call-hierarchy?direction=callers")).toEqual({
    total: 3,
    truncated: false,
    nodes: ["3@0", "4@1", "1@2"],
    links: ["1>4 ACCESS", "1>4 CALL", "4>3 ACCESS"],
  });
  expect(graph("/objects/10/call-hierarchy?direction=both&hops=1")).toEqual({
    total: 3,
    truncated: false,
    nodes: ["10@0", "2@1", "1@1"],
    links: ["1>10 CALL", "2>10 CALL"],
  });
});

test("start and end points: every link counts, length 0 included, sorted by name", () => {
  const points = (path: string) => {
    const a = get(path) as { startPoints: { id: string }[]; endPoints: { id: string }[] };
    return [a.startPoints.map((p) => p.id), a.endPoints.map((p) => p.id)];
  };
  expect(points("/objects/1/start-end-points")).toEqual([["1"], ["3", "10"]]);
  expect(points("/objects/4/start-end-points")).toEqual([["1"], ["3"]]);
  expect(points("/objects/3/start-end-points?hops=0")).toEqual([[], ["3"]]);
  expect(points("/objects/3/start-end-points?hops=2")).toEqual([["1"], ["3"]]);
});

test("level graph: links by origin name, then target name, _id last", () => {
  const graph = get("/levels/5/graph") as {
    nodes: { _id: number; fullName: string; nbObjects: number }[];
    links: { origin: { _id: number }; target: { _id: number } }[];
  };
  expect(graph.nodes.map((n) => [n._id, n.fullName, n.nbObjects])).toEqual([
    [0, "Svc##Apps##Y##JSP##Frag", 2],
    [1, "Svc##Apps##X##JSP##Page", 2],
    [2, "Svc##Apps##Y##JSP##Page", 1],
  ]);
  // Page(1)→Frag, Page(2)→Frag, then Page(1)→Page(2): the target's name before the origin's _id.
  expect(graph.links.map((l) => [l.origin._id, l.target._id])).toEqual([
    [1, 0],
    [2, 0],
    [1, 2],
  ]);
  expect((get("/levels/1/graph") as { links: unknown[] }).links).toEqual([]);
});

test("level nodes: by name with child nodes, by _id at level 5 with objects", () => {
  expect(get("/levels/4/nodes?name=jsp&select=children")).toEqual([
    { _id: 0, name: "JSP", fullName: "Svc##Apps##X##JSP", level: 4, children: [{ _id: 1, name: "Page", level: 5 }] },
    {
      _id: 1,
      name: "JSP",
      fullName: "Svc##Apps##Y##JSP",
      level: 4,
      children: [
        { _id: 0, name: "Frag", level: 5 },
        { _id: 2, name: "Page", level: 5 },
      ],
    },
  ]);
  expect(
    (get("/levels/5/nodes?_id=0&select=children") as { children: { id: string }[] }[])[0].children.map((c) => c.id),
  ).toEqual(["3", "10"]);
});

test("bad requests say what is wrong", () => {
  expect(() => get("/objects?name=x")).toThrow("limit is required");
  expect(() => get("/objects?limit=1&operator=like")).toThrow(
    "operator must be one of contains, equals, startswith, endswith",
  );
  expect(() => get("/objects/99")).toThrow("no object with id");
});
