// @module How far the heap grows above a settled baseline while requests are answered in process and their bodies read chunk by chunk, as a client on a socket reads them.

export type Fetch = (request: Request) => Response | Promise<Response>;

export interface Growth {
  /** Status of each request. */
  status: number[];
  /** Bytes of all the bodies. */
  bodyBytes: number;
  ms: number;
  /** Highest heapUsed + arrayBuffers above the baseline. */
  bytes: number;
}

const held = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** Sends `requests` together and reads every body to its end, calling and awaiting `onChunk` at each chunk (`first`: a body's first). */
export async function send(
  fetch: Fetch,
  requests: readonly Request[],
  onChunk: (first: boolean) => void | Promise<void> = () => {},
): Promise<{ status: number[]; bodyBytes: number }> {
  const answers = await Promise.all(
    requests.map(async (request) => {
      const response = await fetch(request);
      let bytes = 0;
      if (response.body)
        for await (const chunk of response.body) {
          await onChunk(bytes === 0);
          bytes += chunk.byteLength;
        }
      return { status: response.status, bytes };
    }),
  );
  return { status: answers.map((a) => a.status), bodyBytes: answers.reduce((sum, a) => sum + a.bytes, 0) };
}

/** heapUsed + arrayBuffers after two full GCs a turn of the event loop apart (large backing stores are freed after the first). */
async function settled(gc: () => void): Promise<number> {
  gc();
  await new Promise((done) => setTimeout(done, 0));
  gc();
  return held();
}

/**
 * The growth while `requests` are answered. `live`: each sample settles the heap as the baseline
 * is settled — a full GC, a turn of the event loop, another — at each chunk read and every 10 ms
 * (timers fire between the reads a query awaits, so the matching and the walks are sampled too, not
 * only the writing), but with at least three times the last settling's duration between two, so
 * they take at most a quarter of the time, except at a body's first chunk (when an answer made whole
 * before it is sent is all there) — what is live. The turn matters: V8 frees the backing stores of
 * dead array buffers after the GC that finds them, so a sample right after one GC counts the pages
 * and chunks of the last few milliseconds as held. Otherwise: samples every millisecond and at each
 * chunk without a GC — garbage included, what the heap reaches before V8 collects.
 */
export async function heapGrowth(
  fetch: Fetch,
  requests: readonly Request[],
  gc: () => void,
  live: boolean,
): Promise<Growth> {
  const base = await settled(gc);
  let bytes = 0;
  let next = 0;
  // A reader that asks while a sample settles waits for it, holding what it has until it is counted.
  let settling: Promise<void> | null = null;
  const settle = async () => {
    const start = performance.now();
    bytes = Math.max(bytes, (await settled(gc)) - base);
    const end = performance.now();
    next = end + 3 * (end - start);
    settling = null;
  };
  const sample = (first = false): void | Promise<void> => {
    if (!live) {
      bytes = Math.max(bytes, held() - base);
      return;
    }
    if (settling) return settling;
    if (performance.now() < next && !first) return;
    settling = settle();
    return settling;
  };
  const sampler = setInterval(() => sample(), live ? 10 : 1);
  const started = performance.now();
  try {
    const answer = await send(fetch, requests, sample);
    return { ...answer, ms: performance.now() - started, bytes };
  } finally {
    clearInterval(sampler);
  }
}
