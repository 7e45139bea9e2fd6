// @module fast-check arbitraries: random valid analyses (small, collision-prone) for property tests.
import fc from "fast-check";

/** Text drawn from a tiny alphabet, so names collide, tie case-insensitively and share substrings. */
export const smallText = fc.string({
  unit: fc.constantFrom("a", "A", "b", "B", "é", "É", "ß", "_", ".", " ", "😀", "&", "+", "/"),
  maxLength: 6,
});

export interface Analysis {
  format: "appstruct.analysis/1";
  application: string;
  analyzedAt: string;
  files: { id: string; path: string; text?: string }[];
  taxonomy?: { key: string; level: number; name: string; parent: string | null }[];
  objects: Record<string, unknown>[];
  links: { from: string; to: string; type: string; escalated?: boolean }[];
  postIts: { object: string; title: string; text?: string }[];
}

const ID_POOL = ["1", "2", "3", "10", "11", "20", "100", "9999999999999999999", "18446744073", "42"];

/** A valid analysis of 0–`maxObjects` objects with every optional feature exercised at random. */
export function arbitraryAnalysis(
  options: { maxObjects?: number; withTaxonomy?: boolean } = {},
): fc.Arbitrary<Analysis> {
  const maxObjects = options.maxObjects ?? 10;
  return fc
    .record({
      ids: fc.uniqueArray(
        fc.oneof(fc.constantFrom(...ID_POOL), fc.bigInt({ min: 1n, max: 10n ** 19n - 1n }).map(String)),
        { maxLength: maxObjects },
      ),
      files: fc.uniqueArray(fc.integer({ min: -5, max: 5 }).map(String), { maxLength: 3 }),
      taxonomy:
        options.withTaxonomy === false ? fc.constant(false) : options.withTaxonomy ? fc.constant(true) : fc.boolean(),
      seed: fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
      texts: fc.array(smallText, { minLength: 64, maxLength: 64 }),
      linkSpecs: fc.array(
        fc.record({
          from: fc.nat(),
          to: fc.nat(),
          type: fc.constantFrom("CALL", "USE", "ACCESS", "call"),
          escalated: fc.option(fc.boolean(), { nil: undefined }),
        }),
        { maxLength: 30 },
      ),
      postItSpecs: fc.array(
        fc.record({ object: fc.nat(), title: smallText, text: fc.option(smallText, { nil: undefined }) }),
        { maxLength: 4 },
      ),
    })
    .map(({ ids, files, taxonomy, seed, texts, linkSpecs, postItSpecs }) => {
      const pick = <T>(list: readonly T[], i: number) => list[seed[i % seed.length] % list.length];
      const text = (i: number) => texts[i % texts.length];
      const nodes: NonNullable<Analysis["taxonomy"]> = [];
      if (taxonomy) {
        let parents: (string | null)[] = [null];
        for (let level = 1; level <= 5; level++) {
          const count = 1 + (seed[level] % 3);
          const keys: string[] = [];
          for (let k = 0; k < count; k++) {
            const key = `L${level}-${k}`;
            nodes.push({ key, level, name: text(level * 3 + k), parent: pick(parents, level + k) });
            keys.push(key);
          }
          parents = keys;
        }
      }
      const level5 = nodes.filter((n) => n.level === 5).map((n) => n.key);
      const objects = ids.map((id, i) => {
        const o: Record<string, unknown> = {
          id,
          name: text(i),
          fullName: `${text(i + 1)}.${text(i)}`,
          type: pick(["Java Method", "Java Class", "SQL Table"], i),
          typeId: pick(["JV_METHOD", "JV_CLASS", "SQL_TABLE"], i),
        };
        const s = seed[i % seed.length];
        if (s & 1) o.language = pick(["Java", "SQL"], i);
        if (s & 2) o.filePath = s & 4 ? null : text(i + 2);
        if (s & 8) o.mangling = text(i + 3);
        if (s & 16) o.external = true;
        if (s & 32) o.annotations = s & 64 ? null : [text(i + 4), text(i + 5)];
        if (s & 128) o.tags = [text(i + 6)];
        if (s & 256 && i > 0) o.parent = ids[s % i];
        if (taxonomy) o.level5 = pick(level5, i);
        if (s & 512) o.role = s & 1024 ? "start" : "end";
        if (s & 2048) o.checksum = text(i + 7);
        if (s & 4096 && files.length)
          o.sourceLocations = [{ fileId: pick(files, i), startLine: 1 + (s % 50), endLine: 60 + (s % 7) }];
        return o;
      });
      return {
        format: "appstruct.analysis/1" as const,
        application: "Prop & Test/App",
        analyzedAt: "2026-05-05T10:00:00Z",
        // Some files without text, some empty, lines ending in \n or \r\n, the last one with or without.
        files: files.map((id, k) => {
          const s = seed[20 + k];
          if (s % 4 === 0) return { id, path: `src/${id}.java` };
          const lines = texts.slice(k, k + (s % 9));
          return { id, path: `src/${id}.java`, text: lines.join(s & 8 ? "\r\n" : "\n") + (s & 16 ? "\n" : "") };
        }),
        ...(taxonomy ? { taxonomy: nodes } : {}),
        objects,
        links: ids.length
          ? linkSpecs.map((l) => ({
              from: ids[l.from % ids.length],
              to: ids[l.to % ids.length],
              type: l.type,
              ...(l.escalated === undefined ? {} : { escalated: l.escalated }),
            }))
          : [],
        postIts: ids.length
          ? postItSpecs.map((p) => ({
              object: ids[p.object % ids.length],
              title: p.title,
              ...(p.text === undefined ? {} : { text: p.text }),
            }))
          : [],
      };
    });
}
