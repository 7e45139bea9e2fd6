// @module HeavyGate: at most `atOnce` permits held, waiters let in in the order they came; a permit not renewed lapses, a waiter that stops looking is passed over; Turns asks for a permit past its size, leaves turns of the event loop to the others while it holds one, and gives it back when done.
import { describe, expect, it } from "vitest";
import { HeavyGate, LEASE_MS, type Permit, STALE_WAITER_MS } from "../../src/query/heavy-gate.ts";
import { nextTurn, TURNS_LEFT_TO_OTHERS, Turns } from "../../src/query/turns.ts";

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A clock the test moves by hand. */
function clock() {
  let at = 1_000_000;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

/** Whether `promise` has settled after a few turns of the waiters' polls. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await realSleep(60);
  return done;
}

describe("HeavyGate", () => {
  it("holds at most `atOnce` permits and lets waiters in in the order they came", async () => {
    const gate = new HeavyGate(2);
    const first = await gate.admit();
    const second = await gate.admit();
    const order: number[] = [];
    const waiting = [3, 4, 5].map((n) => gate.admit().then((permit) => (order.push(n), permit)));
    await realSleep(60);
    expect({ held: gate.held, waiting: gate.waiting, order }).toEqual({ held: 2, waiting: 3, order: [] });
    // One permit free at a time: the first waiter, then the next, in the order they came.
    first.release();
    const third = await waiting[0];
    expect(await settled(waiting[1])).toBe(false);
    second.release();
    const fourth = await waiting[1];
    expect(await settled(waiting[2])).toBe(false);
    third.release();
    const fifth = await waiting[2];
    expect(order).toEqual([3, 4, 5]);
    fourth.release();
    fifth.release();
    expect(gate.held).toBe(0);
  });

  it("takes a permit not renewed for LEASE_MS as its holder gone, and counts it again once renewed", async () => {
    const time = clock();
    const gate = new HeavyGate(1, { now: time.now });
    const holder = await gate.admit();
    const waiter = gate.admit();
    time.advance(LEASE_MS - 1);
    holder.renew();
    time.advance(LEASE_MS);
    expect(await settled(waiter)).toBe(false);
    time.advance(2);
    const next = await waiter;
    expect(gate.held).toBe(1);
    // A lapsed holder still at work holds again: it counts until it gives its permit back.
    holder.renew();
    expect(gate.held).toBe(2);
    holder.release();
    next.release();
    expect(gate.held).toBe(0);
    // Released, it stays released.
    holder.renew();
    expect(gate.held).toBe(0);
  });

  it("passes over a waiter that stopped looking (its request cancelled) for STALE_WAITER_MS", async () => {
    const time = clock();
    let frozen = false;
    // A waiter that sleeps while frozen never looks again, as one whose request was cancelled.
    const sleep = (ms: number) => (frozen ? new Promise<void>(() => {}) : realSleep(ms));
    const gate = new HeavyGate(1, { now: time.now, sleep });
    const holder = await gate.admit();
    void gate.admit();
    await realSleep(30);
    frozen = true;
    await realSleep(30);
    frozen = false;
    const later = gate.admit();
    holder.release();
    expect(await settled(later)).toBe(false);
    time.advance(STALE_WAITER_MS + 1);
    const permit: Permit = await later;
    expect(gate.held).toBe(1);
    permit.release();
  });
});

describe("HeavyGate and the request's signal", () => {
  it("ends a wait when the client goes away, rejecting with the signal's reason, and lets the next one in", async () => {
    const gate = new HeavyGate(1);
    const holder = await gate.admit();
    const gone = new AbortController();
    const abandoned = gate.admit(gone.signal);
    const next = gate.admit();
    await realSleep(20);
    gone.abort(new Error("client went away"));
    await expect(abandoned).rejects.toThrow("client went away");
    expect(gate.waiting).toBe(1);
    holder.release();
    (await next).release();
    expect(gate.held).toBe(0);
  });

  it("gives a holder's permit back when its client goes away, and takes none for a request already gone", async () => {
    const gate = new HeavyGate(1);
    const gone = new AbortController();
    await gate.admit(gone.signal);
    expect(gate.held).toBe(1);
    gone.abort();
    expect(gate.held).toBe(0);
    await expect(gate.admit(gone.signal)).rejects.toThrow();
    expect({ held: gate.held, waiting: gate.waiting }).toEqual({ held: 0, waiting: 0 });
  });
});

describe("Turns with a gate", () => {
  it("asks for a permit once past its size, shares the wait, renews at each turn and gives it back when done", async () => {
    const time = clock();
    const gate = new HeavyGate(1, { now: time.now });
    const turns = new Turns(10, { gate, after: 25 });
    turns.after(20);
    expect(turns.admitted()).toBeUndefined();
    const other = await gate.admit();
    turns.after(10);
    const wait = turns.admitted()!;
    expect(wait).toBeInstanceOf(Promise);
    expect(turns.admitted()).toBe(wait);
    expect(await settled(wait)).toBe(false);
    other.release();
    await wait;
    expect(turns.admitted()).toBeUndefined();
    expect(gate.held).toBe(1);
    // Renewed at the next turn: it outlives a lease counted from its admission.
    time.advance(LEASE_MS);
    void turns.after(10);
    time.advance(2);
    expect(gate.held).toBe(1);
    turns.done();
    expect(gate.held).toBe(0);
  });

  it("gives a permit back at once when it comes after the work is done", async () => {
    const gate = new HeavyGate(1);
    const other = await gate.admit();
    const turns = new Turns(10, { gate, after: 5 });
    turns.after(10);
    const wait = turns.admitted()!;
    turns.done();
    other.release();
    await wait;
    expect(gate.held).toBe(0);
    expect(turns.admitted()).toBeUndefined();
  });

  it("lets the event loop turn TURNS_LEFT_TO_OTHERS times at each turn of a heavy answer, once at a light one's", async () => {
    /** Turns the event loop made while `wait` was pending: another request stepping once a turn. */
    async function turnsDuring(wait: Promise<void>): Promise<number> {
      let steps = 0;
      let over = false;
      void wait.then(() => (over = true));
      while (!over) {
        await nextTurn();
        if (!over) steps++;
      }
      return steps;
    }
    const gate = new HeavyGate(1);
    const turns = new Turns(10, { gate, after: 15 });
    // A light answer's turn is the one the other request steps in too; a heavy one's lets it step
    // in each of the turns after.
    expect(await turnsDuring(turns.after(10)!)).toBe(0);
    turns.after(5);
    await turns.admitted();
    expect(await turnsDuring(turns.after(10)!)).toBe(TURNS_LEFT_TO_OTHERS - 1);
    turns.done();
  });
});
