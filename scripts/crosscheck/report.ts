// @module Per-class median and p99 of both sides, their ratio, and the table the cross-check prints.
import type { ClassSamples } from "./timing.ts";

export interface ClassFigures {
  cls: string;
  samples: number;
  ours: { p50: number; p99: number };
  sqlite: { p50: number; p99: number };
  /** SQLite's median / ours: above 1, appstruct is faster. */
  ratio: number;
  /** Medians of each query of the class. */
  queries: { path: string; ours: number; sqlite: number }[];
}

/** Nearest-rank percentile of `values` (p in (0, 100]). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function figures(samples: ClassSamples[]): ClassFigures[] {
  return samples.map((s) => {
    const ours = { p50: percentile(s.ours, 50), p99: percentile(s.ours, 99) };
    const sqlite = { p50: percentile(s.sqlite, 50), p99: percentile(s.sqlite, 99) };
    const queries = [...s.byQuery].map(([path, q]) => ({
      path,
      ours: percentile(q.ours, 50),
      sqlite: percentile(q.sqlite, 50),
    }));
    return { cls: s.cls, samples: s.ours.length, ours, sqlite, ratio: sqlite.p50 / ours.p50, queries };
  });
}

/** Three significant digits, as a table cell. */
export function ms(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toPrecision(3);
}

export function ratioText(ratio: number): string {
  return `${ratio >= 10 ? ratio.toFixed(0) : ratio.toPrecision(2)}×`;
}

/** A Markdown table: one row per class, milliseconds, × = SQLite median / ours. */
export function table(title: string, rows: ClassFigures[]): string {
  return [
    `| ${title} | n | ours p50 | ours p99 | SQLite p50 | SQLite p99 | SQLite/ours |`,
    "|---|--:|--:|--:|--:|--:|--:|",
    ...rows.map(
      (r) =>
        `| ${r.cls} | ${r.samples} | ${ms(r.ours.p50)} | ${ms(r.ours.p99)} | ${ms(r.sqlite.p50)} | ${ms(r.sqlite.p99)} | ${ratioText(r.ratio)} |`,
    ),
  ].join("\n");
}
