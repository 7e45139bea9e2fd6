// @module Turns: a long answer lets the event loop turn every so often, so that the requests beside it (their arrival, their reads' answers) are not held up for all of it.
//
// An answer awaits only promises already settled while every page it needs is cached: it then runs
// to its end in one turn of the event loop, and no other request of the process (or the isolate)
// moves meanwhile. A 32-hop walk at 1M objects follows up to 4.5 million links in up to 0.7 s that
// way; with two clients asking such walks beside 48 asking light answers, the light answers took
// 0.26 to 0.72 s at the median, against 25 to 30 ms with no walk beside (50 to 64 ms with the turns).

/**
 * Links a walk follows between two turns: some 1 ms of work at 1M objects (7,000 to 8,000 links a
 * millisecond with their pages cached). Beside 48 clients of light answers and 2 asking deep walks,
 * the light answers' median was 2.6 to 3.4 times its value without the walks at 32,768 links a turn,
 * 1.9 to 2.0 times at 8,192; a turn costs some 45 µs here, so a deep walk alone takes some 7% longer.
 */
export const LINKS_A_TURN = 8_192;

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

/** Work one answer does, counted in what its caller does (links followed, row pages inflated), with a turn of the event loop each time `every` more are done. */
export class Turns {
  private readonly every: number;
  private since = 0;

  constructor(every: number) {
    this.every = every;
  }

  /** Counts `done` more; undefined while fewer than `every` were done since the last turn, else the next turn to wait for. */
  after(done: number): Promise<void> | undefined {
    this.since += done;
    if (this.since < this.every) return undefined;
    this.since = 0;
    return nextTurn();
  }
}
