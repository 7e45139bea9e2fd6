// @module encodeSnapshot: a SnapshotModel to the bytes of one version-1 snapshot file.
import { type SectionInput, encodeContainer } from "./container.ts";
import { encodeMeta } from "./meta.ts";
import type { SnapshotModel } from "./model.ts";
import { META_TAG, SECTIONS, type SectionTag, encodeSection } from "./sections.ts";

export function encodeSnapshot(model: SnapshotModel, onSection?: (tag: string) => void): Uint8Array {
  const sections: SectionInput[] = [{ tag: META_TAG, body: encodeMeta(model.meta) }];
  for (const tag of Object.keys(SECTIONS) as SectionTag[]) {
    onSection?.(tag);
    sections.push({ tag, body: encodeSection(tag, model) });
  }
  return encodeContainer(sections);
}
