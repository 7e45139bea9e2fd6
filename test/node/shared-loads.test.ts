// @module SharedLoads: a load is joined by its own request without polling, by another request by polling its outcome up to its deadline; a failed load is never handed on; loads whose owners are gone are swept.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SharedLoads } from "../../src/shared-loads.ts";

/** A load settled by hand, counting how many times it was started. */
function manualLoads() {
  const settlers: { resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
  const load = () => new Promise<string>((resolve, reject) => settlers.push({ resolve, reject }));
  return { settlers, load };
}

/** Whether `promise` has settled once the microtasks queued now have run (no timer fires). */
async function settledNow(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return settled;
}

describe("SharedLoads", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("hands a load to a later call of the same request as soon as it settles, without polling", async () => {
    let request = "a";
    const loads = new SharedLoads<string, string>(Date.now, () => request);
    const { settlers, load } = manualLoads();
    const first = loads.run("page", load, 1000);
    const second = loads.run("page", load, 1000);
    expect(settlers).toHaveLength(1);
    settlers[0].resolve("bytes");
    expect(await settledNow(second)).toBe(true);
    expect(await Promise.all([first, second])).toEqual(["bytes", "bytes"]);

    // Another request joins the same way only through its own timers: settled by the load, seen at its next poll.
    const third = loads.run("other", load, 1000);
    request = "b";
    const fourth = loads.run("other", load, 1000);
    expect(settlers).toHaveLength(2);
    settlers[1].resolve("more");
    expect(await settledNow(fourth)).toBe(false);
    await vi.advanceTimersByTimeAsync(16);
    expect(await Promise.all([third, fourth])).toEqual(["more", "more"]);
  });

  it("lets another request see a settled load at most a quarter of its wait late", async () => {
    let request = "a";
    const loads = new SharedLoads<string, string>(Date.now, () => request);
    const { settlers, load } = manualLoads();
    loads.run("page", load, 1000);
    request = "b";
    const joined = loads.run("page", load, 1000);
    await vi.advanceTimersByTimeAsync(20);
    settlers[0].resolve("bytes");
    expect(await settledNow(joined)).toBe(false);
    await vi.advanceTimersByTimeAsync(5);
    expect(await settledNow(joined)).toBe(true);
    expect(await joined).toBe("bytes");
  });

  it("never hands on a failed load: a call of the same request then loads for itself", async () => {
    const loads = new SharedLoads<string, string>(Date.now, () => "a");
    const { settlers, load } = manualLoads();
    const first = loads.run("page", load, 1000);
    const second = loads.run("page", load, 1000);
    settlers[0].reject(new Error("cancelled"));
    await expect(first).rejects.toThrow("cancelled");
    for (let i = 0; i < 10 && settlers.length < 2; i++) await Promise.resolve();
    expect(settlers).toHaveLength(2);
    settlers[1].resolve("again");
    expect(await second).toBe("again");
  });

  it("sweeps loads past their deadline once the entries have grown, keeping those in time", () => {
    let now = 0;
    const loads = new SharedLoads<number, string>(() => now);
    const { load } = manualLoads();
    // 300 loads whose owners are gone: never settled, past their deadline.
    for (let k = 0; k < 300; k++) void loads.run(k, load, 10);
    expect(loads.size).toBe(300);
    now = 100;
    // The next start sweeps them all; what it leaves in time stays until the entries double again.
    for (let k = 300; k < 700; k++) void loads.run(k, load, 1_000);
    expect(loads.size).toBe(400);
    now = 5_000;
    // All 400 are stale now, but no start sweeps before the entries reach 512, twice what the last
    // sweep left: a round of hundreds of loads does not go over them all at each start.
    void loads.run(700, load, 10);
    expect(loads.size).toBe(401);
    // At 512 the stale ones go: the 400 started from 700 on are left, in time.
    for (let k = 701; k < 1_100; k++) void loads.run(k, load, 10);
    expect(loads.size).toBe(400);
  });

  it("polls for every join without a scope, or outside any request", async () => {
    for (const loads of [
      new SharedLoads<string, string>(),
      new SharedLoads<string, string>(Date.now, () => undefined),
    ]) {
      const { settlers, load } = manualLoads();
      const first = loads.run("page", load, 1000);
      const second = loads.run("page", load, 1000);
      settlers[0].resolve("bytes");
      expect(await settledNow(second)).toBe(false);
      await vi.advanceTimersByTimeAsync(16);
      expect(await Promise.all([first, second])).toEqual(["bytes", "bytes"]);
      expect(settlers).toHaveLength(1);
    }
  });
});
