// @module GrowableArray: an append-only typed array for millions of link fields without per-link objects.

type TypedArray = Uint8Array | Uint32Array;

export class Growable<T extends TypedArray> {
  private data: T;
  length = 0;

  private readonly make: (size: number) => T;

  constructor(make: (size: number) => T, initial = 1024) {
    this.make = make;
    this.data = make(initial);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = this.make(this.data.length * 2);
      bigger.set(this.data as never);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  get(index: number): number {
    return this.data[index];
  }

  /** Empties it, keeping its room. */
  clear(): void {
    this.length = 0;
  }

  /** The filled part, as a view (no copy). */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }
}
