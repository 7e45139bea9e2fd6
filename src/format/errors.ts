// @module The typed errors of the format: a decoder's when bytes cannot be trusted, a writer's when an analysis holds more than a snapshot can.

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

/**
 * An analysis holding more than a snapshot can store (an object whose displayed fields would take
 * more than a row or a member page holds): the writer refuses it before anything is written. The
 * analysis is at fault, not a snapshot.
 */
export class SnapshotLimitError extends Error {
  override readonly name = "SnapshotLimitError";
  constructor(message: string) {
    super(message);
  }
}
