// @module The generator's randomness: mulberry32, seeded, so a seed always writes the same analysis.

/** mulberry32: small, fast, good enough for synthetic data; fully deterministic. */
export class Rng {
  state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  range(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(a: readonly T[]): T {
    return a[Math.floor(this.next() * a.length)];
  }
  /** Pick favouring the head of the list (density ~ 1/sqrt(x)). */
  pickSkew<T>(a: readonly T[]): T {
    const u = this.next();
    return a[Math.floor(u * u * a.length)];
  }
  /** Lomax (Pareto II) integer with the given mean: power-law tail, capped. */
  lomax(mean: number, cap: number, alpha = 2.2): number {
    const u = this.next();
    const x = mean * (alpha - 1) * ((1 - u) ** (-1 / alpha) - 1);
    return Math.min(cap, Math.round(x));
  }
}

export function hash32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
