// @module SCIP symbol strings and ranges: the grammar's cases by hand, and which bodies hold a point against a plain filter.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Span, spanOf, spansContaining } from "../../build/import/ranges.ts";
import { ownerSymbol, parseSymbol } from "../../build/import/scip-symbol.ts";

describe("parseSymbol", () => {
  it("reads the header, `.` placeholders, doubled spaces and every descriptor suffix", () => {
    expect(parseSymbol("scip-java maven com.example  shop . com/example/Repo#find(+1).[T](id)")).toEqual({
      scheme: "scip-java",
      manager: "maven",
      packageName: "com.example shop",
      version: "",
      descriptors: [
        { name: "com", disambiguator: "", suffix: "namespace" },
        { name: "example", disambiguator: "", suffix: "namespace" },
        { name: "Repo", disambiguator: "", suffix: "type" },
        { name: "find", disambiguator: "+1", suffix: "method" },
        { name: "T", disambiguator: "", suffix: "typeParameter" },
        { name: "id", disambiguator: "", suffix: "parameter" },
      ],
    });
    expect(parseSymbol("rust-analyzer cargo std 1.0 io/Write#flush!").descriptors.at(-1)).toEqual({
      name: "flush",
      disambiguator: "",
      suffix: "macro",
    });
  });

  it("reads escaped names, a doubled back-quote standing for one", () => {
    const parsed = parseSymbol("scip-typescript npm pkg 1.0.0 src/`a.ts`/`<get>x`().`we``ird`:");
    expect(parsed.descriptors.map((d) => d.name)).toEqual(["src", "a.ts", "<get>x", "we`ird"]);
    expect(parsed.descriptors.map((d) => d.suffix)).toEqual(["namespace", "namespace", "method", "meta"]);
  });

  it("refuses what leaves the grammar, saying where", () => {
    expect(() => parseSymbol("local 3")).toThrow("a local symbol where a global one is needed");
    expect(() => parseSymbol("scip-python python")).toThrow(
      "a symbol that ends before its descriptors at character 19",
    );
    expect(() => parseSymbol("s m p v ")).toThrow("no descriptor");
    expect(() => parseSymbol("s m p v `open")).toThrow("an unterminated `escaped` name");
    expect(() => parseSymbol("s m p v a?")).toThrow(
      'a descriptor suffix (/ # . : ! or a method\'s "().") expected after "a"',
    );
    expect(() => parseSymbol("s m p v f(x")).toThrow('")." expected after a method name');
  });

  it("gives the owner as the symbol without its last descriptor", () => {
    const symbol = "scip-typescript npm pkg 1.0.0 src/`a.ts`/Shape#`<constructor>`().";
    expect(ownerSymbol(symbol, parseSymbol(symbol))).toBe("scip-typescript npm pkg 1.0.0 src/`a.ts`/Shape#");
    expect(ownerSymbol("s m p v a/", parseSymbol("s m p v a/"))).toBeNull();
  });
});

describe("ranges", () => {
  it("reads three- and four-number ranges and refuses others", () => {
    expect(spanOf([2, 4, 9])).toEqual({ start: [2, 4], end: [2, 9] });
    expect(spanOf([2, 4, 5, 1])).toEqual({ start: [2, 4], end: [5, 1] });
    expect(spanOf([2, 4])).toBeNull();
    expect(spanOf([2, 4, 1, 0])).toBeNull();
    expect(spanOf([-1, 0, 3])).toBeNull();
  });

  it("spansContaining gives, for each point, the spans holding its start, outermost first", () => {
    const position = fc.tuple(fc.nat(6), fc.nat(6));
    const span = fc
      .tuple(position, position)
      .map(
        ([a, b]): Span =>
          a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]) ? { start: a, end: b } : { start: b, end: a },
      );
    const cmp = (a: readonly number[], b: readonly number[]) => a[0] - b[0] || a[1] - b[1];
    fc.assert(
      fc.property(fc.array(span, { maxLength: 12 }), fc.array(span, { maxLength: 12 }), (bodies, points) => {
        const spans = bodies.map((s, id) => ({ span: s, id }));
        const found = spansContaining(spans, points);
        points.forEach((p, i) => {
          const holding = spans.filter((s) => cmp(s.span.start, p.start) <= 0 && cmp(p.start, s.span.end) < 0);
          expect(found[i].map((s) => s.id).sort((a, b) => a - b)).toEqual(holding.map((s) => s.id));
          // Outermost first: by start, then the longer span first.
          for (let k = 1; k < found[i].length; k++) {
            const [a, b] = [found[i][k - 1].span, found[i][k].span];
            expect(cmp(a.start, b.start) < 0 || (cmp(a.start, b.start) === 0 && cmp(a.end, b.end) >= 0)).toBe(true);
          }
        });
      }),
    );
  });
});
