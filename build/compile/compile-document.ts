// @module compileDocument: an in-memory analysis document to snapshot bytes (no file system; runs in workerd too).
import { encodeSnapshot } from "../../src/format/encode.ts";
import type { SnapshotModel } from "../../src/format/model.ts";
import { validateDocument } from "../analysis/document.ts";
import { buildModel, type StatusBase } from "./build-model.ts";

export function compileDocument(
  document: unknown,
  previous: StatusBase | null = null,
): { bytes: Uint8Array; model: SnapshotModel } {
  const model = buildModel(validateDocument(document), previous);
  return { bytes: encodeSnapshot(model), model };
}
