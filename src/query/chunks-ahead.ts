// @module ChunksAhead: what a walk loads for each chunk of its frontier, chunk after chunk, the next chunks' loads under way while one is walked.

/**
 * Chunks whose loads are under way while one is walked: a deep walk's step over a large frontier then
 * waits on storage for several chunks' reads at once, not chunk after chunk. A cold 32-hop walk at
 * 1M objects over reads of 20 ms waited 66 rounds one chunk at a time, 34 so.
 */
const CHUNKS_AHEAD = 3;

/** `frontier` (ascending) in chunks of `size` ranks, each a view of it. */
export function chunksOf(frontier: Uint32Array, size: number): Uint32Array[] {
  const chunks: Uint32Array[] = [];
  for (let from = 0; from < frontier.length; from += size) chunks.push(frontier.subarray(from, from + size));
  return chunks;
}

/**
 * What `load` gives for each of `chunks`, one chunk after the other (`next`); the loads of the next
 * CHUNKS_AHEAD chunks are under way while one is walked.
 */
export class ChunksAhead<T> {
  private readonly chunks: readonly Uint32Array[];
  private readonly load: (chunk: Uint32Array) => Promise<T>;
  private readonly loads: Promise<T>[] = [];
  private ahead = 0;

  constructor(chunks: readonly Uint32Array[], load: (chunk: Uint32Array) => Promise<T>) {
    this.chunks = chunks;
    this.load = load;
  }

  /** What the next chunk loaded. */
  next(): Promise<T> {
    for (; this.ahead < this.chunks.length && this.loads.length <= CHUNKS_AHEAD; this.ahead++)
      this.loads.push(this.load(this.chunks[this.ahead]));
    return this.loads.shift()!;
  }

  /** A walk refused, cut short or failed midway leaves the loads it started ahead to settle unheeded. */
  abandon(): void {
    for (const load of this.loads) load.catch(() => {});
  }
}
