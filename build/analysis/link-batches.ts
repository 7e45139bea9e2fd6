// @module LinkBatch: the plain link lines of a stretch of an analysis file, as the link thread scans them: runs of lines, ids numbered in the order met, types, flags.
import { Growable } from "./growable.ts";
import { scannedLink, scanPlainLink } from "./plain-links.ts";

/**
 * The plain link lines of one stretch of the file, in line order. Ids and types are numbered in
 * the order the scanning thread met them over the whole file; a batch brings the ones it met first.
 */
export interface LinkBatch {
  /** Every line ending at or before this byte of the file has been scanned. */
  through: number;
  /** Runs of consecutive plain link lines: the number of each one's first line. */
  runStarts: Uint32Array<ArrayBuffer>;
  /** How many lines each run has: the links below are theirs, run after run. */
  runLengths: Uint32Array<ArrayBuffer>;
  from: Uint32Array<ArrayBuffer>;
  to: Uint32Array<ArrayBuffer>;
  type: Uint32Array<ArrayBuffer>;
  /** 1 for `"escalated":true`. */
  escalated: Uint8Array<ArrayBuffer>;
  /** The ids numbered from the previous batch's last one on, as slotKey keys them. */
  newIds: (string | number)[];
  /** The types numbered from the previous batch's last one on. */
  newTypes: string[];
}

/** The buffers a batch is moved with to another thread. */
export const batchBuffers = (batch: LinkBatch): ArrayBuffer[] =>
  [batch.runStarts, batch.runLengths, batch.from, batch.to, batch.type, batch.escalated].map((a) => a.buffer);

/** Links a batch holds room for at first; it grows as a stretch of the file has more. */
const FIRST_ROOM = 1 << 16;

/** Scans lines into batches: what the link thread runs over the whole file. */
export class LinkBatcher {
  private readonly ids = new IdNumbers();
  private readonly types = new Map<string, number>();
  private runStarts: number[] = [];
  private runLengths: number[] = [];
  private lastLine = -1;
  private lastFrom: string | number = -1;
  private lastFromNumber = -1;
  private readonly from = new Growable((n) => new Uint32Array(n), FIRST_ROOM);
  private readonly to = new Growable((n) => new Uint32Array(n), FIRST_ROOM);
  private readonly type = new Growable((n) => new Uint32Array(n), FIRST_ROOM);
  private readonly escalated = new Growable((n) => new Uint8Array(n), FIRST_ROOM);
  private newIds: (string | number)[] = [];
  /** Ids numbered so far: the next one met first is numbered this. */
  private newIdCount = 0;
  private newTypes: string[] = [];

  /** Notes the line if it is a plain link line (scanPlainLink); true when it is. */
  scan(bytes: Uint8Array, start: number, end: number, lineNumber: number): boolean {
    if (!scanPlainLink(bytes, start, end)) return false;
    const { from, to, type, escalated } = scannedLink;
    if (lineNumber === this.lastLine + 1 && this.runLengths.length > 0) this.runLengths[this.runLengths.length - 1]++;
    else this.runStarts.push(lineNumber), this.runLengths.push(1);
    this.lastLine = lineNumber;
    // Analyzers write a caller's links together: most lines repeat the last line's caller.
    if (from !== this.lastFrom) (this.lastFrom = from), (this.lastFromNumber = this.idNumber(from));
    this.from.push(this.lastFromNumber);
    this.to.push(this.idNumber(to));
    let code = this.types.get(type);
    if (code === undefined) {
      this.types.set(type, (code = this.types.size));
      this.newTypes.push(type);
    }
    this.type.push(code);
    this.escalated.push(escalated === true ? 1 : 0);
    return true;
  }

  /** The lines noted since the last batch, as a batch through byte `through`. */
  take(through: number): LinkBatch {
    const batch: LinkBatch = {
      through,
      runStarts: Uint32Array.from(this.runStarts),
      runLengths: Uint32Array.from(this.runLengths),
      from: this.from.view().slice(),
      to: this.to.view().slice(),
      type: this.type.view().slice(),
      escalated: this.escalated.view().slice(),
      newIds: this.newIds,
      newTypes: this.newTypes,
    };
    // A run is not continued into the next batch: each batch's runs are its own.
    this.runStarts = [];
    this.runLengths = [];
    for (const links of [this.from, this.to, this.type, this.escalated]) links.clear();
    this.newIds = [];
    this.newTypes = [];
    return batch;
  }

  private idNumber(id: string | number): number {
    const n = this.ids.numberOf(id);
    if (n === this.newIdCount) {
      this.newIdCount++;
      this.newIds.push(id);
    }
    return n;
  }
}

/**
 * Ids numbered in the order met. Those of up to 15 digits (numbers: nearly all) in an open
 * addressing table of their own, each key beside its number: a Map of a million number keys took
 * some 300 ns a lookup, most of it waiting on memory, and a link looks one up or two.
 */
class IdNumbers {
  /** Key and number+1 of each slot, side by side: 0 marks a free slot. */
  private table = new Float64Array(2 * 4096);
  private mask = 4096 - 1;
  /** 32 less the bits a slot takes: a multiplicative hash's best bits are its highest. */
  private shift = 32 - 12;
  private size = 0;
  private readonly texts = new Map<string, number>();

  /** The number of `id`, numbered now (as the count so far) when met first. */
  numberOf(id: string | number): number {
    if (typeof id === "string") {
      let n = this.texts.get(id);
      if (n === undefined) this.texts.set(id, (n = this.size++));
      return n;
    }
    const table = this.table;
    let slot = slotOf(id, this.shift);
    for (;;) {
      const stored = table[2 * slot + 1];
      if (stored === 0) break;
      if (table[2 * slot] === id) return stored - 1;
      slot = (slot + 1) & this.mask;
    }
    const n = this.size++;
    table[2 * slot] = id;
    table[2 * slot + 1] = n + 1;
    if (2 * this.size > this.mask) this.rehash();
    return n;
  }

  private rehash(): void {
    const old = this.table;
    this.table = new Float64Array(2 * old.length);
    this.mask = old.length - 1;
    this.shift--;
    for (let slot = 0; slot < old.length / 2; slot++) {
      const stored = old[2 * slot + 1];
      if (stored === 0) continue;
      const id = old[2 * slot];
      let at = slotOf(id, this.shift);
      while (this.table[2 * at + 1] !== 0) at = (at + 1) & this.mask;
      this.table[2 * at] = id;
      this.table[2 * at + 1] = stored;
    }
  }
}

/** The first slot to try for `id` (a whole number below 2^53): a multiplicative hash of its two 32-bit halves. */
const slotOf = (id: number, shift: number): number =>
  Math.imul((id >>> 0) ^ Math.floor(id / 0x100000000), 0x9e3779b1) >>> shift;
