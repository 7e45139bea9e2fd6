// @module meshAnalysis: a generated analysis of `n` objects calling one another in a mesh: from 4,000 objects its link pages (70 KB) are read page by page, not whole.

/** A connected application of `n` objects: each calls its successor and two far ones; every 40th is a start point, every 97th an end point. */
export function meshAnalysis(n: number, application: string) {
  const id = (i: number) => String(1000 + i);
  const objects = Array.from({ length: n }, (_, i) => ({
    id: id(i),
    name: `Step${i}`,
    fullName: `mesh.module${i % 37}.Step${i}`,
    type: "Java Method",
    typeId: "JAVA_METHOD",
    level5: "method",
    language: "Java",
    filePath: `src/mesh/Module${i % 37}.java`,
    role: i % 40 === 0 ? "start" : i % 97 === 0 ? "end" : undefined,
    checksum: `c${i}`,
    sourceLocations: [{ fileId: String(1 + (i % 37)), startLine: 1 + i, endLine: 5 + i }],
  }));
  const links = objects.flatMap((_, i) =>
    [i + 1, (i * 7 + 3) % n, (i * 13 + 5) % n]
      .filter((j) => j < n && j !== i)
      .map((j) => ({ from: id(i), to: id(j), type: "CALL" })),
  );
  return {
    format: "appstruct.analysis/1",
    application,
    analyzedAt: "2026-11-01T00:00:00Z",
    analyzer: { name: "mesh test", version: "1" },
    files: Array.from({ length: 37 }, (_, f) => ({ id: String(1 + f), path: `src/mesh/Module${f}.java` })),
    taxonomy: [
      { key: "l1", level: 1, name: "Mesh", parent: null },
      { key: "l2", level: 2, name: "Modules", parent: "l1" },
      { key: "l3", level: 3, name: "Java", parent: "l2" },
      { key: "l4", level: 4, name: "Code", parent: "l3" },
      { key: "method", level: 5, name: "Java Method", parent: "l4" },
    ],
    objects: objects.map(({ role, ...o }) => (role ? { ...o, role } : o)),
    links,
    postIts: [],
  };
}
