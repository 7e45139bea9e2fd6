// @module Permanent object ids: derived from what locates an object (its key), so re-analyses give the same id to the same object.
import { createHash } from "node:crypto";

/** Hands out ids from keys: 62 bits of the key's SHA-256 in decimal (≤ 19 digits, no leading zero); a collision rehashes. */
export class IdAllocator {
  private readonly taken = new Set<string>();

  idFor(key: string): string {
    for (let attempt = 0; ; attempt++) {
      const digest = createHash("sha256")
        .update(attempt === 0 ? key : `${key}#${attempt}`)
        .digest();
      const id = String(digest.readBigUInt64BE(0) >> 2n || 1n);
      if (!this.taken.has(id)) {
        this.taken.add(id);
        return id;
      }
    }
  }
}

/** Makes names unique within one analysis in first-come order: the second `x` becomes `x#2`. */
export class UniqueNames {
  private readonly counts = new Map<string, number>();

  unique(name: string): string {
    const n = (this.counts.get(name) ?? 0) + 1;
    this.counts.set(name, n);
    return n === 1 ? name : `${name}#${n}`;
  }
}

export const checksumOf = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 32);
