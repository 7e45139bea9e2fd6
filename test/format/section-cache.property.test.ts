// @module SectionCache against a reference model of S3-FIFO in bytes: the same loads, hits, sizes and evictions for any budget and sequence of uses.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SectionCache } from "../../src/format/section-cache.ts";

/** The model weighs entries by their sizes alone: so does the cache told so. */
const EXACT = { entryBytes: 0 };

interface ModelEntry {
  key: string;
  size: number;
  frequency: number;
}

/**
 * S3-FIFO as plainly as it can be written: arrays, oldest first, searched linearly. Entries have no
 * dependencies and never grow; the entry just used is never evicted for it.
 */
class ReferenceS3Fifo {
  readonly small: ModelEntry[] = [];
  readonly main: ModelEntry[] = [];
  readonly ghosts: { key: string; size: number }[] = [];
  evictions = 0;
  private readonly budget: number;
  private readonly smallBudget: number;

  constructor(budget: number) {
    this.budget = budget;
    this.smallBudget = budget * 0.1;
  }

  get bytes(): number {
    return [...this.small, ...this.main].reduce((sum, e) => sum + e.size, 0);
  }

  find(key: string): ModelEntry | undefined {
    return [...this.small, ...this.main].find((e) => e.key === key);
  }

  /** A use of `key`: whether it was cached (else it is loaded and inserted). */
  use(key: string, size: number): boolean {
    const found = this.find(key);
    if (found) {
      found.frequency = Math.min(found.frequency + 1, 3);
      this.evictBeyondBudget(key);
      return true;
    }
    const ghost = this.ghosts.findIndex((g) => g.key === key);
    if (ghost >= 0) this.ghosts.splice(ghost, 1);
    (ghost >= 0 ? this.main : this.small).push({ key, size, frequency: 0 });
    this.evictBeyondBudget(key);
    return false;
  }

  private evictBeyondBudget(kept: string): void {
    const smallBytes = () => this.small.reduce((sum, e) => sum + e.size, 0);
    while (this.bytes > this.budget) {
      const evicted =
        smallBytes() > this.smallBudget
          ? this.evictFromSmall(kept) || this.evictFromMain(kept)
          : this.evictFromMain(kept) || this.evictFromSmall(kept);
      if (!evicted) return;
    }
  }

  private evictFromSmall(kept: string): boolean {
    for (;;) {
      const i = this.small.findIndex((e) => e.key !== kept);
      if (i < 0) return false;
      const [entry] = this.small.splice(i, 1);
      if (entry.frequency > 0) {
        this.main.push({ ...entry, frequency: 0 });
        continue;
      }
      this.ghosts.push({ key: entry.key, size: entry.size });
      while (this.ghosts.reduce((sum, g) => sum + g.size, 0) > this.budget - this.smallBudget) this.ghosts.shift();
      this.evictions++;
      return true;
    }
  }

  private evictFromMain(kept: string): boolean {
    for (;;) {
      const i = this.main.findIndex((e) => e.key !== kept);
      if (i < 0) return false;
      const [entry] = this.main.splice(i, 1);
      if (entry.frequency > 0) {
        this.main.push({ ...entry, frequency: entry.frequency - 1 });
        continue;
      }
      this.evictions++;
      return true;
    }
  }
}

/** Uses of keys K0–K9, K0–K2 more often (a hot set): a get (loads on a miss) or a peek (answers only what is kept). */
const uses = fc.array(
  fc.record({
    key: fc.oneof({ weight: 1, arbitrary: fc.integer({ min: 0, max: 2 }) }, fc.integer({ min: 0, max: 9 })),
    peek: fc.boolean(),
  }),
  { minLength: 1, maxLength: 300 },
);

describe("SectionCache against a reference S3-FIFO", () => {
  it("loads, hits, evicts and weighs exactly as the model, for any budget, sizes and uses", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2000 }),
        // Sizes by key, in thousandths of the budget: mostly within the small queue's share (a
        // tenth), some beyond it, a few beyond the whole budget.
        fc.array(
          fc.oneof(
            { weight: 6, arbitrary: fc.integer({ min: 0, max: 100 }) },
            { weight: 3, arbitrary: fc.integer({ min: 100, max: 400 }) },
            { weight: 1, arbitrary: fc.integer({ min: 400, max: 1500 }) },
          ),
          { minLength: 10, maxLength: 10 },
        ),
        uses,
        async (budget, shares, sequence) => {
          const sizes = shares.map((share) => Math.round((budget * share) / 1000));
          const cache = new SectionCache(budget, EXACT);
          const model = new ReferenceS3Fifo(budget);
          let hits = 0;
          let misses = 0;
          for (const [step, { key, peek }] of sequence.entries()) {
            const tag = `K${key}`;
            const size = sizes[key];
            const at = `step ${step}: ${peek ? "peek" : "get"} ${tag} (${size} bytes)`;
            if (peek) {
              const kept = model.find(tag) !== undefined;
              expect(cache.peek("s", tag) !== undefined, at).toBe(kept);
              if (kept) model.use(tag, size), hits++;
            } else {
              let loaded = false;
              const value = await cache.get("s", tag, async () => ((loaded = true), { byteSize: size }));
              expect(value.byteSize, at).toBe(size);
              expect(loaded, at).toBe(!model.use(tag, size));
              if (loaded) misses++;
              else hits++;
            }
            expect(cache.stats(), at).toEqual({
              budgetBytes: budget,
              bytes: model.bytes,
              entries: model.small.length + model.main.length,
              hits,
              misses,
              evictions: model.evictions,
            });
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
