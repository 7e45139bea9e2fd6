// @module Storage inside workerd: idempotent and racing publishes, reads during a publish, R2 faults (503, never a wrong answer), missing snapshots.
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { compileDocument } from "../../build/compile/compile-document.ts";
import { createApp } from "../../src/app.ts";
import { sha256Hex } from "../../src/digests.ts";
import { memorySource, Snapshot } from "../../src/format/snapshot.ts";
import type { AppDeps } from "../../src/http/context.ts";
import { SnapshotSourceLocator } from "../../src/query/source-locator.ts";
import { StoreCatalog } from "../../src/storage/catalog.ts";
import { manifestKey, snapshotKey } from "../../src/storage/manifest.ts";
import { publishSnapshot, readManifest } from "../../src/storage/publish.ts";
import { R2Store } from "../../src/storage/r2-store.ts";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import { appPath, BASE, call, statusBaseOf, testEnv } from "./harness.ts";

const bucket = testEnv.SNAPSHOTS;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** What the source code service reads for an object's locations: the file ids and the location pages with their directory. */
const LOCATION_SECTIONS: readonly string[] = ["SFID", "SLCD", "SLCP"];

/**
 * Whether a get with `options` reads the first byte of section `entry`: alone, or with the sections
 * around it that a reader reads in one (the directories of the closing, on opening).
 */
function reads(options: R2GetOptions | undefined, entry: { offset: number }): boolean {
  const range = options?.range as { offset?: number; length?: number } | undefined;
  if (range?.offset === undefined) return false;
  return range.offset <= entry.offset && entry.offset < range.offset + (range.length ?? Number.POSITIVE_INFINITY);
}

/** The petstore analysis renamed (and, optionally, re-dated) so each test owns its application. */
function petstore(version: typeof petstoreV1 | typeof petstoreV2, application: string, analyzedAt?: string) {
  return { ...version, application, ...(analyzedAt ? { analyzedAt } : {}) };
}

/** An app over `r2` with its own catalog (nothing cached from other tests) that re-reads manifests on every request. */
function appOver(r2: R2Bucket, options: { staleIfErrorMs?: number } = {}) {
  const catalog = new StoreCatalog(new R2Store(r2), { manifestTtlMs: 0, ...options });
  const deps: AppDeps = { catalog, sources: new SnapshotSourceLocator(catalog), access: null };
  const app = createApp(() => deps);
  return (path: string) => call(BASE + path, undefined, (request) => Promise.resolve(app.fetch(request)));
}

type Hooks = {
  /** Runs before every put; may delay it. */
  beforePut?: (key: string) => Promise<void>;
  /** Runs after every get that reached the bucket; may delay it. */
  afterGet?: (key: string) => Promise<void>;
  get?: (
    key: string,
    options: R2GetOptions | undefined,
    real: () => Promise<R2ObjectBody | R2Object | null>,
  ) => Promise<R2ObjectBody | R2Object | null>;
  head?: (key: string, real: () => Promise<R2Object | null>) => Promise<R2Object | null>;
};

/** An R2Bucket that forwards to `inner` through `hooks`, and counts conditional puts R2 refused. */
function wrapBucket(inner: R2Bucket, hooks: Hooks) {
  const stats = { refusedPuts: 0, gets: 0 };
  const wrapped = {
    async head(key: string) {
      return hooks.head ? hooks.head(key, () => inner.head(key)) : inner.head(key);
    },
    async get(key: string, options?: R2GetOptions) {
      stats.gets++;
      const result = hooks.get
        ? await hooks.get(key, options, () => inner.get(key, options))
        : await inner.get(key, options);
      await hooks.afterGet?.(key);
      return result;
    },
    async put(key: string, value: Uint8Array, options?: R2PutOptions) {
      await hooks.beforePut?.(key);
      const result = await inner.put(key, value, options);
      if (options?.onlyIf && result === null) stats.refusedPuts++;
      return result;
    },
    delete: (keys: string | string[]) => inner.delete(keys),
    list: (options?: R2ListOptions) => inner.list(options),
  };
  return { bucket: wrapped as unknown as R2Bucket, stats };
}

describe("publishing", () => {
  it("the same bytes twice: published, then unchanged, and the manifest lists them once", async () => {
    const store = new R2Store(bucket);
    const { bytes } = compileDocument(petstore(petstoreV1, "Twice & Co"));
    const first = await publishSnapshot(store, bytes);
    const second = await publishSnapshot(store, bytes);
    expect(first.outcome).toBe("published");
    expect(second.outcome).toBe("unchanged");
    expect(second.version.sha256).toBe(first.version.sha256);
    const manifest = await readManifest(store, "Twice & Co");
    expect(manifest!.versions.map((v) => v.sha256)).toEqual([await sha256Hex(bytes)]);
  });

  it("the same bytes twice at once: one published, one unchanged, listed once", async () => {
    const slow = wrapBucket(bucket, { beforePut: () => sleep(20), afterGet: () => sleep(20) });
    const store = new R2Store(slow.bucket);
    const { bytes } = compileDocument(petstore(petstoreV1, "Twice At Once"));
    const outcomes = (await Promise.all([publishSnapshot(store, bytes), publishSnapshot(store, bytes)]))
      .map((r) => r.outcome)
      .sort();
    expect(outcomes).toEqual(["published", "unchanged"]);
    expect((await readManifest(store, "Twice At Once"))!.versions).toHaveLength(1);
  });

  for (const publishers of [2, 3]) {
    it(`${publishers} concurrent publishes of different versions of one application all end up in the manifest`, async () => {
      const application = `Racing ${publishers} & Co`;
      const dates = ["2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00+01:00"].slice(0, publishers);
      const snapshots = dates.map(
        (d, i) => compileDocument(petstore(i % 2 ? petstoreV2 : petstoreV1, application, d)).bytes,
      );
      // Every get and put is slow, so each publisher reads the manifest before any of them writes it.
      const slow = wrapBucket(bucket, { beforePut: () => sleep(25), afterGet: () => sleep(25) });
      const store = new R2Store(slow.bucket);
      const results = await Promise.all(snapshots.map((b) => publishSnapshot(store, b)));
      expect(results.map((r) => r.outcome)).toEqual(dates.map(() => "published"));
      expect(slow.stats.refusedPuts).toBeGreaterThan(0); // they did race for the manifest
      const manifest = await readManifest(new R2Store(bucket), application);
      const expected = await Promise.all(snapshots.map((b) => sha256Hex(b)));
      expect(manifest!.versions.map((v) => v.sha256)).toEqual(expected);
      expect(manifest!.versions.map((v) => v.analyzedAtMs)).toEqual(dates.map((d) => Date.parse(d)));
      // And the worker serves the newest of them.
      const newest = await call(`${appPath(application)}/objects/304`);
      expect(newest.status).toBe(publishers === 2 ? 200 : 404); // 304 exists only in the v2 content
    });
  }
});

describe("reads during a publish see the old or the new version, never anything else", () => {
  it("interleaves many reads with publishing v2", async () => {
    const application = "Read Race & Co";
    const v1Doc = petstore(petstoreV1, application);
    const v1 = compileDocument(v1Doc).bytes;
    const v2 = compileDocument(petstore(petstoreV2, application), await statusBaseOf(v1Doc, v1)).bytes;
    await publishSnapshot(new R2Store(bucket), v1);

    const read = appOver(bucket);
    const app = appPath(application);
    const paths = [
      `${app}/objects?limit=10&name=find&select=source-locations`,
      `${app}/objects/302`,
      `${app}/objects/304`,
      `${app}/objects/202/callees?select=parent`,
      `${app}/objects/304/start-end-points?hops=2`,
      `${app}/levels/5/nodes?name=method&select=children`,
    ];
    const answer = async (path: string) => {
      const r = await read(path);
      return `${r.status} ${r.text}`;
    };
    const before = await Promise.all(paths.map(answer));

    const slow = wrapBucket(bucket, { beforePut: () => sleep(60), afterGet: () => sleep(20) });
    let done = false;
    const publishing = publishSnapshot(new R2Store(slow.bucket), v2).finally(() => (done = true));
    const seen: { path: number; answer: string; afterPublish: boolean }[] = [];
    // Each round yields to the timers once: workerd runs no timer callback while a loop only awaits I/O.
    for (let round = 0; !done; round++) {
      expect(round, "the publish never finished").toBeLessThan(2000);
      for (let i = 0; i < paths.length; i++) {
        const afterPublish = done; // known before the request starts
        seen.push({ path: i, answer: await answer(paths[i]), afterPublish });
      }
      await sleep(1);
    }
    expect((await publishing).outcome).toBe("published");
    for (let round = 0; round < 3; round++)
      for (let i = 0; i < paths.length; i++) seen.push({ path: i, answer: await answer(paths[i]), afterPublish: true });
    const after = await Promise.all(paths.map(answer));

    paths.forEach((p, i) => expect(after[i], `${p} differs between v1 and v2`).not.toBe(before[i]));
    expect(before[2].startsWith("404 ")).toBe(true);
    expect(after[2].startsWith("200 ")).toBe(true);
    const versionOf = (s: (typeof seen)[number]) =>
      s.answer === before[s.path] ? 1 : s.answer === after[s.path] ? 2 : 0;
    for (const s of seen) expect(versionOf(s), `${paths[s.path]} answered ${s.answer}`).not.toBe(0);
    for (const s of seen) if (s.afterPublish) expect(versionOf(s), `${paths[s.path]} after the publish`).toBe(2);
    // Sequential reads never go back to v1 once they have seen v2.
    const firstV2 = seen.findIndex((s) => versionOf(s) === 2);
    expect(seen.slice(firstV2).every((s) => versionOf(s) === 2)).toBe(true);
    // The reads really interleaved with the publish.
    expect(seen.filter((s) => !s.afterPublish && versionOf(s) === 1).length).toBeGreaterThan(paths.length);
  });
});

describe("R2 faults: 503 storage_unavailable or the right answer, never a wrong one", () => {
  // Every 503 is logged for the operator, with what storage said; these tests cause hundreds.
  let logged: MockInstance<typeof console.error>;
  beforeEach(() => {
    logged = vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => logged.mockRestore());
  const application = "Faulty & Co";
  const app = appPath(application);
  const paths = [
    `${app}/objects?limit=5&name=find`,
    `${app}/objects?limit=3&filepath=schema.sql&select=source-locations`,
    `${app}/objects/302`,
    `${app}/objects/201/callees?includeEscalated=true&select=parent&select=source-locations`,
    `${app}/objects/302/start-end-points?hops=3`,
    `${app}/levels/5/nodes?name=java&select=children`,
    `${app}/levels/2/graph`,
  ];
  let healthy: string[] | null = null;
  const healthyAnswers = async () => {
    if (!healthy) {
      await publishSnapshot(new R2Store(bucket), compileDocument(petstore(petstoreV1, application)).bytes);
      const read = appOver(bucket);
      healthy = [];
      for (const p of paths) {
        const r = await read(p);
        expect(r.status, `${p}: ${r.text}`).toBe(200);
        healthy.push(r.text);
      }
    }
    return healthy;
  };
  const isSnapshot = (key: string) => key.startsWith("snapshots/");

  function expectUnavailable(r: Awaited<ReturnType<ReturnType<typeof appOver>>>, path: string) {
    expect(r.status, `${path}: ${r.text}`).toBe(503);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.body).toMatchObject({
      status: 503,
      code: "storage_unavailable",
      title: expect.any(String),
      detail: expect.any(String),
    });
  }

  /** An R2Object-like without a body, as R2 answers a get whose onlyIf failed. */
  const bodiless = (o: R2Object) =>
    ({
      key: o.key,
      size: o.size,
      etag: o.etag,
      httpEtag: o.httpEtag,
      version: o.version,
      uploaded: o.uploaded,
    }) as unknown as R2Object;

  /** The manifest `o` as a publish without opening bytes wrote it: readers then read the snapshot's start. */
  const withoutOpenings = (o: R2ObjectBody) =>
    ({
      key: o.key,
      size: o.size,
      etag: o.etag,
      httpEtag: o.httpEtag,
      arrayBuffer: async () => {
        const manifest = JSON.parse(new TextDecoder().decode(await o.arrayBuffer()));
        for (const version of manifest.versions) delete version.head;
        return new TextEncoder().encode(JSON.stringify(manifest)).buffer;
      },
    }) as unknown as R2ObjectBody;

  const faults: [string, Hooks][] = [
    ["every get throws", { get: async () => Promise.reject(new Error("R2 internal error (10001)")) }],
    [
      "snapshot gets throw",
      {
        get: async (key, _o, real) => (isSnapshot(key) ? Promise.reject(new Error("network connection lost")) : real()),
      },
    ],
    ["snapshot gets return null (object gone)", { get: async (key, _o, real) => (isSnapshot(key) ? null : real()) }],
    [
      "snapshot gets return an object without a body",
      {
        get: async (key, _o, real) => {
          const o = await real();
          return o && isSnapshot(key) ? bodiless(o) : o;
        },
      },
    ],
    [
      "the snapshot's ETag is no longer the one the manifest lists",
      {
        get: async (key, options, real) => {
          const o = await real();
          // Replaced since it was published: a read pinned to the listed ETag is refused.
          return o && isSnapshot(key) && options?.onlyIf ? bodiless({ ...o, etag: `${o.etag}0` } as R2Object) : o;
        },
      },
    ],
    [
      "the snapshot's ETag changed between its first bytes and the next read (a version without opening bytes)",
      {
        get: async (key, options, real) => {
          const o = (await real()) as R2ObjectBody | null;
          if (o && key.endsWith("manifest.json")) return withoutOpenings(o);
          // The first read (no ETag to match yet) sees a version that is gone by the next.
          if (!o || !isSnapshot(key) || options?.onlyIf) return o;
          return {
            key: o.key,
            size: o.size,
            etag: `${o.etag}0`,
            httpEtag: `"${o.etag}0"`,
            body: o.body,
            arrayBuffer: () => o.arrayBuffer(),
          } as unknown as R2ObjectBody;
        },
      },
    ],
    [
      "snapshot gets report another ETag",
      {
        get: async (key, _o, real) => {
          const o = (await real()) as R2ObjectBody | null;
          if (!o || !isSnapshot(key)) return o;
          return {
            key: o.key,
            size: o.size,
            etag: `${o.etag}x`,
            httpEtag: `"${o.etag}x"`,
            body: o.body,
            arrayBuffer: () => o.arrayBuffer(),
          } as unknown as R2ObjectBody;
        },
      },
    ],
    [
      "snapshot gets return fewer bytes than asked",
      {
        get: async (key, _o, real) => {
          const o = (await real()) as R2ObjectBody | null;
          if (!o || !isSnapshot(key)) return o;
          return {
            key: o.key,
            size: o.size,
            etag: o.etag,
            httpEtag: o.httpEtag,
            body: o.body,
            arrayBuffer: async () => (await o.arrayBuffer()).slice(1),
          } as unknown as R2ObjectBody;
        },
      },
    ],
  ];

  for (const [label, hooks] of faults)
    it(`${label}: every request answers 503 storage_unavailable`, async () => {
      await healthyAnswers();
      const read = appOver(wrapBucket(bucket, hooks).bucket);
      for (const p of paths) expectUnavailable(await read(p), p);
    });

  it("a manifest that cannot be read: 503 on every route", async () => {
    await healthyAnswers();
    const read = appOver(
      wrapBucket(bucket, {
        get: async (key, _o, real) =>
          key === manifestKey(application) ? Promise.reject(new Error("R2 timeout")) : real(),
      }).bucket,
    );
    for (const p of paths) expectUnavailable(await read(p), p);
  });

  it("a manifest that cannot be read again: the one read last answers for a while, then 503, and the log says so", async () => {
    const expected = await healthyAnswers();
    // Long enough for every path to be asked while the manifest fails, each request reading it three times.
    const STALE_IF_ERROR_MS = 4000;
    let failing = false;
    const read = appOver(
      wrapBucket(bucket, {
        get: async (key, _o, real) =>
          failing && key === manifestKey(application) ? Promise.reject(new Error("R2 timeout")) : real(),
      }).bucket,
      { staleIfErrorMs: STALE_IF_ERROR_MS },
    );
    const answers = async () => {
      const got: string[] = [];
      for (const p of paths) {
        const r = await read(p);
        got.push(`${r.status} ${r.text}`);
      }
      return got;
    };
    const healthyHere = expected.map((text) => `200 ${text}`);
    expect(await answers()).toEqual(healthyHere);
    failing = true;
    const failedFrom = Date.now();
    expect(await answers()).toEqual(healthyHere);
    expect(Date.now() - failedFrom).toBeLessThan(STALE_IF_ERROR_MS);
    expect(logged.mock.calls.some(([line]) => String(line).startsWith(`manifest of ${application} unreadable`))).toBe(
      true,
    );
    await sleep(STALE_IF_ERROR_MS - (Date.now() - failedFrom) + 100);
    for (const p of paths) expectUnavailable(await read(p), p);
    failing = false;
    expect(await answers()).toEqual(healthyHere);
  });

  it("a failure reading any one section: 503 for the requests that need it, the right answer for the others", async () => {
    const expected = await healthyAnswers();
    const bytes = compileDocument(petstore(petstoreV1, application)).bytes;
    const toc = (await Snapshot.open(memorySource(bytes))).toc;
    const failedBy = new Set<string>();
    for (const [tag, entry] of toc) {
      if (LOCATION_SECTIONS.includes(tag)) continue; // see the next test
      const read = appOver(
        wrapBucket(bucket, {
          get: async (key, options, real) => {
            if (isSnapshot(key) && reads(options, entry)) throw new Error(`R2 read of ${tag} failed`);
            return real();
          },
        }).bucket,
      );
      for (const [i, p] of paths.entries()) {
        const r = await read(p);
        if (r.status === 503) {
          expectUnavailable(r, p);
          failedBy.add(tag);
        } else expect(`${r.status} ${r.text}`, `${p} with ${tag} unreadable`).toBe(`200 ${expected[i]}`);
      }
    }
    // Exactly the sections these routes read (worked out from the query engine): the columns a row
    // store replaces, other filters' indexes and post-its are not among them, nor OBJC, which the
    // link and id pages replace for callees, points and id lookups. Callees with their parents' types
    // read TYPE and TYID. Start and end points are written from the point pages (PNTP, PNTD), found
    // in FLOW's lists, and their walks consult HOPS.
    // Trigram indexes this small are read whole, not through their chunk directories.
    // Name filters read their key pages (KNAM and its directory). The id directory comes
    // with the opening bytes the manifest lists: no route reads it.
    expect([...failedBy].sort()).toEqual([
      "DNAM",
      "FLOW",
      "HOPS",
      "IDXP",
      "KNAM",
      "LGRA",
      "LNKD",
      "LNKP",
      "MEMD",
      "MEMP",
      "PNTD",
      "PNTP",
      "ROWD",
      "ROWP",
      "TAXO",
      "TNAM",
      "TPTH",
      "TYID",
      "TYPE",
      "XPTH",
    ]);
  });

  // docs/api.md#source-locations reserves 500 source_service_unavailable for a service that is disabled or not
  // configured; storage failing behind the service is a storage fault.
  it("a failure reading a source-locations section: 503 storage_unavailable (not 500 source_service_unavailable)", async () => {
    await healthyAnswers();
    const bytes = compileDocument(petstore(petstoreV1, application)).bytes;
    const toc = (await Snapshot.open(memorySource(bytes))).toc;
    for (const tag of LOCATION_SECTIONS) {
      const section = toc.get(tag)!;
      const read = appOver(
        wrapBucket(bucket, {
          get: async (key, options, real) => {
            if (isSnapshot(key) && reads(options, section)) throw new Error(`R2 read of ${tag} failed`);
            return real();
          },
        }).bucket,
      );
      for (const p of paths.filter((p) => p.includes("select=source-locations")))
        expectUnavailable(await read(p), `${p} with ${tag} unreadable`);
    }
  });

  /** A get's range as a key of its own: the same range asked again is another attempt at one read. */
  const rangeOf = (key: string, options: R2GetOptions | undefined) => {
    const range = options?.range as { offset?: number; length?: number } | undefined;
    return `${key} ${range?.offset ?? "-"} ${range?.length ?? "-"}`;
  };

  it("a read R2 fails to answer once or twice is tried again: every answer is the healthy one", async () => {
    const expected = await healthyAnswers();
    const attempts = new Map<string, number>();
    const read = appOver(
      wrapBucket(bucket, {
        get: async (key, options, real) => {
          const range = rangeOf(key, options);
          const attempt = (attempts.get(range) ?? 0) + 1;
          attempts.set(range, attempt);
          // Every read fails at first, one in two fails twice: R2's "internal error", then an answer.
          if (attempt === 1 || (attempt === 2 && attempts.size % 2 === 0))
            throw new Error("We encountered an internal error. Please try again.");
          return real();
        },
      }).bucket,
    );
    for (const [i, p] of paths.entries()) {
      const r = await read(p);
      expect(`${r.status} ${r.text}`, p).toBe(`200 ${expected[i]}`);
    }
    expect([...attempts.values()].filter((n) => n === 3).length).toBeGreaterThan(0);
  });

  it("a read failing at every attempt: 503 after three, and the log says so", async () => {
    await healthyAnswers();
    const attempts = new Map<string, number>();
    const read = appOver(
      wrapBucket(bucket, {
        get: async (key, options, real) => {
          if (!isSnapshot(key)) return real();
          const range = rangeOf(key, options);
          // Counted across requests (and reads a failed answer left running): the log says how many one read took.
          attempts.set(range, (attempts.get(range) ?? 0) + 1);
          throw new Error("We encountered an internal error. Please try again.");
        },
      }).bucket,
    );
    for (const p of paths) expectUnavailable(await read(p), p);
    const lines = logged.mock.calls.filter(([what]) => what === "storage unavailable");
    expect(lines).toHaveLength(paths.length);
    for (const line of lines) expect(line.at(-1)).toMatch(/^read snapshots\/.*internal error.*\(3 attempts\)$/);
    expect(attempts.size).toBeGreaterThan(0);
  });

  it("a snapshot gone or replaced is not read again: one attempt, then 503", async () => {
    await healthyAnswers();
    for (const replaced of [false, true])
      for (const p of paths) {
        // A fresh app for each request: a range read by an earlier request would be read again, rightly.
        const attempts = new Map<string, number>();
        const read = appOver(
          wrapBucket(bucket, {
            get: async (key, options, real) => {
              const o = await real();
              if (!o || !isSnapshot(key) || !options?.onlyIf) return o;
              const range = rangeOf(key, options);
              attempts.set(range, (attempts.get(range) ?? 0) + 1);
              return replaced ? bodiless({ ...o, etag: `${o.etag}0` } as R2Object) : null;
            },
          }).bucket,
        );
        expectUnavailable(await read(p), p);
        expect(attempts.size, p).toBeGreaterThan(0);
        expect(new Set(attempts.values()), p).toEqual(new Set([1]));
      }
  });

  /** A deterministic pseudo-random sequence (mulberry32), so failures reproduce. */
  const random = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  for (const seed of [1, 2, 3, 4, 5, 6])
    it(`flaky R2 (seed ${seed}): each answer is 503 or exactly the healthy one, and answers recover when R2 does`, async () => {
      const expected = await healthyAnswers();
      const next = random(seed);
      let failing = true;
      let injected = 0;
      // Reads of the source-locations sections stay healthy: the test above covers their failure.
      const { toc } = await Snapshot.open(memorySource(compileDocument(petstore(petstoreV1, application)).bytes));
      const locations = new Set(LOCATION_SECTIONS.map((tag) => toc.get(tag)!.offset));
      const flaky = wrapBucket(bucket, {
        head: async (_key, real) => {
          if (failing && next() < 0.2) throw new Error("flaky head");
          return real();
        },
        get: async (key, options, real) => {
          if (locations.has((options?.range as { offset?: number } | undefined)?.offset ?? -1)) return real();
          if (!failing || next() >= 0.3) return real();
          injected++;
          const kind = next();
          if (kind < 0.4) throw new Error("flaky get");
          const o = await real();
          if (!o || !isSnapshot(key)) throw new Error("flaky get");
          return kind < 0.7 ? bodiless(o) : null;
        },
      });
      const read = appOver(flaky.bucket);
      let unavailable = 0;
      let right = 0;
      for (let round = 0; round < 4; round++)
        for (const [i, p] of paths.entries()) {
          const r = await read(p);
          if (r.status === 503) {
            expectUnavailable(r, p);
            unavailable++;
          } else {
            expect(`${r.status} ${r.text}`, p).toBe(`200 ${expected[i]}`);
            right++;
          }
        }
      // Faults were met; reads tried again may have turned all of them into right answers.
      expect(injected).toBeGreaterThan(0);
      failing = false;
      for (const [i, p] of paths.entries())
        expect(`${(await read(p)).status} ${(await read(p)).text}`, `${p} once R2 is healthy again`).toBe(
          `200 ${expected[i]}`,
        );
      expect(right + unavailable).toBe(4 * paths.length);
    });
});

describe("a manifest that names a snapshot missing from storage", () => {
  it("answers 503 storage_unavailable through the worker, on every route that reads it", async () => {
    const application = "Missing & Co";
    const { bytes } = compileDocument(petstore(petstoreV1, application, "2025-12-24T18:00:00Z"));
    await publishSnapshot(new R2Store(bucket), bytes);
    await bucket.delete(snapshotKey(await sha256Hex(bytes)));
    const app = appPath(application);
    for (const p of [
      `${app}/objects?limit=5`,
      `${app}/objects/302`,
      `${app}/objects/201/callees`,
      `${app}/objects/302/start-end-points`,
      `${app}/levels/2/graph`,
      `${app}/levels/3/nodes?name=a&select=children`,
    ]) {
      const r = await call(p);
      expect(r.status, `${p}: ${r.text}`).toBe(503);
      expect(r.body).toMatchObject({ status: 503, code: "storage_unavailable" });
    }
    // find objects at a date before the only analysis does not need the snapshot.
    expect((await call(`${app}/objects?limit=5&date=2020-01-01T00%3A00%3A00Z`)).body).toEqual({
      totalObjects: 0,
      objects: [],
    });
  });
});

describe("replacing a version", () => {
  it("another analysis at the same analyzedAt replaces the version and deletes the replaced snapshot, nothing else", async () => {
    const application = "Replaced & Co";
    const store = new R2Store(bucket);
    const first = compileDocument(petstore(petstoreV1, application, "2026-03-01T00:00:00Z")).bytes;
    const second = compileDocument(petstore(petstoreV2, application, "2026-03-01T00:00:00Z")).bytes;
    const other = compileDocument(petstore(petstoreV2, application, "2026-04-01T00:00:00Z")).bytes;
    await publishSnapshot(store, first);
    await publishSnapshot(store, other);
    expect((await publishSnapshot(store, second)).outcome).toBe("published");
    const manifest = await readManifest(store, application);
    expect(manifest!.versions.map((v) => v.sha256)).toEqual([await sha256Hex(second), await sha256Hex(other)]);
    expect(await bucket.head(snapshotKey(await sha256Hex(first)))).toBeNull();
    expect(await bucket.head(snapshotKey(await sha256Hex(second)))).not.toBeNull();
    expect(await bucket.head(snapshotKey(await sha256Hex(other)))).not.toBeNull();
  });
});

describe("large objects", () => {
  it("go up as a multipart upload above the single-put limit, and read back byte for byte", async () => {
    const MiB = 1024 * 1024;
    const store = new R2Store(bucket, { singlePutLimit: 6 * MiB, partBytes: 5 * MiB });
    const bytes = new Uint8Array(11 * MiB + 3);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096) & 0xff;
    const info = await store.put("large/object", bytes);
    expect(info.size).toBe(bytes.length);
    const object = await bucket.get("large/object");
    expect(object!.etag).toBe(info.etag);
    expect(Buffer.from(new Uint8Array(await object!.arrayBuffer())).equals(Buffer.from(bytes))).toBe(true);
    expect(Array.from(await store.getRange("large/object", 10 * MiB - 1, 2, info.etag))).toEqual([
      0,
      ((10 * MiB) / 4096) & 0xff,
    ]);
    await bucket.delete("large/object");
  });
});
