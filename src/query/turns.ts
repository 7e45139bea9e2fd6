// @module Turns: a long answer lets the event loop turn every so often, so that the requests beside it (their arrival, their reads' answers) are not held up for all of it; past a size, it waits its turn among heavy answers (HeavyGate) and then leaves most turns to the others.
//
// An answer awaits only promises already settled while every page it needs is cached: it then runs
// to its end in one turn of the event loop, and no other request of the process (or the isolate)
// moves meanwhile. A 32-hop walk at 1M objects follows up to 4.5 million links in up to 0.7 s that
// way; with two clients asking such walks beside 48 asking light answers, the light answers took
// 0.26 to 0.72 s at the median, against 25 to 30 ms with no walk beside (50 to 64 ms with the turns).

import type { HeavyGate, Permit } from "./heavy-gate.ts";

/**
 * Links a walk follows between two turns: some 1 ms of work at 1M objects (7,000 to 8,000 links a
 * millisecond with their pages cached). Beside 48 clients of light answers and 2 asking deep walks,
 * the light answers' median was 2.6 to 3.4 times its value without the walks at 32,768 links a turn,
 * 1.9 to 2.0 times at 8,192; a turn costs some 45 µs here, so a deep walk alone takes some 7% longer.
 */
export const LINKS_A_TURN = 8_192;

/**
 * Links followed past which a walk is heavy: at 1M objects, 3-hop walks follow at most 1,857 and
 * 5-hop walks 34,490 (100 objects each), 8-hop walks 66,202 at the median, 32-hop walks 1 to 4.5
 * million. Some 8 ms of work with the pages cached.
 */
export const HEAVY_LINKS = 65_536;

/**
 * Turns of the event loop a heavy answer lets go by after each turn of its own work: the light
 * answers beside it move that many steps (an arrival, a read's answer) for each millisecond it
 * works, where one turn each lets two deep walks take most of the time. With 48 clients asking
 * light answers and 2 asking 32-hop walks at 1M objects, the light answers' median beside the
 * walks was 2.5 to 2.7 times its value without them at 1 turn, 1.7 at 2, 1.6 to 1.8 at 3 and 1.5
 * at 4; the walks took 1.4 to 1.7 times as long beside them. A walk alone takes no longer: a turn
 * with nothing else to do costs some 25 µs in workerd and less on Node.
 */
export const TURNS_LEFT_TO_OTHERS = 3;

/**
 * Resolves at the event loop's next turn, once what is due runs: the I/O callbacks waiting (other
 * requests' arrivals, their reads' answers) and what was queued before it. setImmediate where the
 * runtime has it (Node), else a zero timeout (workerd).
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) =>
    typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0),
  );
}

/** Resolves once the event loop has turned `count` times. */
async function turnsGoneBy(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await nextTurn();
}

/** Where an answer past `after` units of work waits to be let in among heavy answers; `signal`: its request's, aborted when its client goes away. */
export interface HeavyAdmission {
  gate: HeavyGate;
  after: number;
  signal?: AbortSignal;
}

/**
 * Work one answer does, counted in what its caller does (links followed, row pages gone through), with a
 * turn of the event loop each time `every` more are done; past `heavy.after` in all, the answer is
 * heavy and waits for a permit of `heavy.gate` where it holds no pages (`admitted`), renews it at
 * each turn and gives it back when `done`.
 */
export class Turns {
  private readonly every: number;
  private readonly heavy: HeavyAdmission | undefined;
  private since = 0;
  private total = 0;
  private permit: Permit | undefined;
  private admission: Promise<void> | undefined;
  private over = false;

  constructor(every: number, heavy?: HeavyAdmission) {
    this.every = every;
    this.heavy = heavy;
  }

  /**
   * Counts `done` more; undefined while fewer than `every` were done since the last turn, else the
   * next turn to wait for (for a heavy answer, TURNS_LEFT_TO_OTHERS of them). Throws the signal's
   * reason at a turn once the request's client has gone: nobody is left to read the answer.
   */
  after(done: number): Promise<void> | undefined {
    this.since += done;
    this.total += done;
    if (this.since < this.every) return undefined;
    this.since = 0;
    this.heavy?.signal?.throwIfAborted();
    if (!this.permit) return nextTurn();
    this.permit.renew();
    return turnsGoneBy(TURNS_LEFT_TO_OTHERS);
  }

  /**
   * Undefined while the work is light, admitted or over; else the wait for a permit, shared by
   * whoever asks during it (a walk's two directions). Asked where the answer holds no pages: those
   * waiting then hold little.
   */
  admitted(): Promise<void> | undefined {
    if (!this.heavy || this.over || this.permit || this.total < this.heavy.after) return undefined;
    this.admission ??= this.heavy.gate.admit(this.heavy.signal).then((permit) => {
      if (this.over) permit.release();
      else this.permit = permit;
    });
    return this.admission;
  }

  /** The work is over: a permit held goes back, and none is taken after. */
  done(): void {
    this.over = true;
    this.permit?.release();
    this.permit = undefined;
  }
}
