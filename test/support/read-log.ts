// @module loggedSnapshot: a snapshot opened as the worker opens one, each storage read late and logged with its section, what had come in before it and whether a prefetch made it: what tests of read rounds look at.
import { SectionCache } from "../../src/format/section-cache.ts";
import { type ByteSource, delayedSource, memorySource, Snapshot } from "../../src/format/snapshot.ts";
import { currentStorageMeter } from "../../src/format/storage-meter.ts";
import { rawSections } from "../format/snapshot-bytes.ts";

/** One storage read: its section, its length, the sections of the reads settled when it started, and whether a prefetch made it (no answer waits for it). */
export interface LoggedRead {
  tag: string;
  length: number;
  settledBefore: string[];
  prefetch: boolean;
}

/**
 * `bytes` opened under `key` as the worker opens a snapshot (its directories read ahead) with a
 * section cache of `budget` bytes, each read `delayMs` late (0: at once, and no connection limit, as
 * from a local file). `record` gives the list the reads after it go into: once the reads made on
 * opening are in, or at once (`afterOpening` false: as a cold answer, the first query of an
 * isolate, reads).
 */
export async function loggedSnapshot(
  bytes: Uint8Array,
  budget: number,
  key: string,
  delayMs = 5,
): Promise<{ snapshot: Snapshot; record(afterOpening?: boolean): Promise<LoggedRead[]> }> {
  const sections = rawSections(bytes);
  const tagAt = (offset: number) =>
    sections.find((s) => offset >= s.offset && offset < s.offset + s.length)?.tag ?? "?";
  // Late first, logged around it: a read is logged as it is asked for, settled once its wait is over.
  const late = delayedSource(memorySource(bytes, key), delayMs);
  let log: LoggedRead[] | null = null;
  const settled: string[] = [];
  const logged: ByteSource = {
    ...late,
    read: async (offset, length) => {
      const tag = tagAt(offset);
      const prefetch = currentStorageMeter()?.prefetching ?? false;
      log?.push({ tag, length, settledBefore: [...settled], prefetch });
      const got = await late.read(offset, length);
      settled.push(tag);
      return got;
    },
  };
  const snapshot = await Snapshot.open(logged, {
    sections: new SectionCache(budget),
    readAhead: true,
  });
  return {
    snapshot,
    record: async (afterOpening = true) => {
      if (afterOpening) await new Promise((done) => setTimeout(done, 20 * delayMs));
      log = [];
      return log;
    },
  };
}
