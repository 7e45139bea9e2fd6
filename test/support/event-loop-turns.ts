// @module turnsDuring: how many times the event loop turned while some work ran (a setImmediate rescheduled at each turn), and what the work gave.

/** `work`'s result, and the turns of the event loop while it ran: none for work awaiting only settled promises. */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const value = await work();
  running = false;
  return { value, turns };
}
