// @module Turns: an answer's work is counted, and the event loop turns once `every` more is done, not before; what was queued on the loop before runs before the work goes on.
import { describe, expect, it } from "vitest";
import { nextTurn, Turns } from "../../src/query/turns.ts";

describe("Turns", () => {
  it("asks for a turn each time `every` more is done, counting what a call brings past it as done", () => {
    const turns = new Turns(10);
    expect(turns.after(4)).toBeUndefined();
    expect(turns.after(5)).toBeUndefined();
    expect(turns.after(1)).toBeInstanceOf(Promise);
    expect(turns.after(9)).toBeUndefined();
    // One call of many counts as one: a single turn, then the count starts again.
    expect(turns.after(25)).toBeInstanceOf(Promise);
    expect(turns.after(9)).toBeUndefined();
  });

  it("lets what was queued on the event loop before it run first", async () => {
    const order: string[] = [];
    setImmediate(() => order.push("immediate"));
    await Promise.resolve();
    order.push("microtask");
    await nextTurn();
    order.push("after the turn");
    expect(order).toEqual(["microtask", "immediate", "after the turn"]);
  });
});
