// @module CRC-32 (IEEE 802.3, the zlib/PNG polynomial) over byte arrays, for section checksums.

const TABLE = (() => {
  const table = new Uint32Array(256 * 4);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  // Slicing-by-4 tables: four bytes per step keeps verification of a 100 MB snapshot well under a second.
  for (let n = 0; n < 256; n++) {
    let c = table[n];
    for (let t = 1; t < 4; t++) {
      c = table[c & 0xff] ^ (c >>> 8);
      table[t * 256 + n] = c >>> 0;
    }
  }
  return table;
})();

type Crc32 = (bytes: Uint8Array, previous?: number) => number;

/**
 * zlib's CRC-32 where the runtime has it (Node: the compiler, `serve`), ten times faster than the
 * tables below, which serve where it has not (Workers).
 */
const nativeCrc32 = ((): Crc32 | undefined => {
  try {
    const process = (globalThis as { process?: { getBuiltinModule?(id: string): { crc32?: Crc32 } | undefined } })
      .process;
    return process?.getBuiltinModule?.("node:zlib")?.crc32;
  } catch {
    return undefined;
  }
})();

/** CRC-32 of `bytes`, continuing from `previous` (the CRC of the bytes before them, 0 at the start). */
export const crc32: Crc32 = nativeCrc32 ?? portableCrc32;

/** `crc32` by tables, in any runtime. */
export function portableCrc32(bytes: Uint8Array, previous = 0): number {
  const t = TABLE;
  let crc = ~previous >>> 0;
  let i = 0;
  const end4 = bytes.length - (bytes.length % 4);
  for (; i < end4; i += 4) {
    crc ^= bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    crc = t[768 + (crc & 0xff)] ^ t[512 + ((crc >>> 8) & 0xff)] ^ t[256 + ((crc >>> 16) & 0xff)] ^ t[crc >>> 24];
  }
  for (; i < bytes.length; i++) crc = t[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}
