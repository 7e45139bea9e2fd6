// @module The typed error every snapshot decoder throws when bytes cannot be trusted.

/** A snapshot whose bytes break the format: wrong magic or version, a failed checksum, an out-of-range offset. */
export class CorruptSnapshotError extends Error {
  override readonly name = "CorruptSnapshotError";
  constructor(message: string) {
    super(message);
  }
}

/** Throws CorruptSnapshotError with `message` unless `condition` holds. */
export function check(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) throw new CorruptSnapshotError(typeof message === "string" ? message : message());
}
