// @module encodeSnapshot: a SnapshotModel to the bytes of one snapshot, in memory or through any ByteSink.
import { type ByteSink, ContainerWriter, MemorySink } from "./container.ts";
import { LayoutPlan, type PlanThreads } from "./layout-plan.ts";
import { encodeMeta } from "./meta.ts";
import type { SnapshotModel } from "./model.ts";
import { encodeSection, inClosing, META_TAG, SECTIONS, type SectionTag } from "./sections.ts";

/**
 * Writes every section of `model` to `sink`, one at a time; returns the file length. `threads`
 * take what work they are given (pages, the flow points' counts, the keys' indexes) ahead, on
 * other threads: the bytes are the same whichever does the work. The directories read on opening
 * are encoded in their turn, from the layouts of their pages, and written last, together
 * (inClosing): a few MiB held meanwhile at 1M objects.
 */
export function writeSnapshot(
  model: SnapshotModel,
  sink: ByteSink,
  onSection?: (tag: string) => void,
  threads: PlanThreads = {},
): number {
  const tags = Object.keys(SECTIONS) as SectionTag[];
  const writer = new ContainerWriter(sink, tags.length + 1);
  writer.add(META_TAG, encodeMeta(model.meta));
  const plan = new LayoutPlan(model, threads);
  const ahead = plan.encodeAhead();
  const closing: [SectionTag, Uint8Array][] = [];
  for (const tag of tags) {
    ahead();
    onSection?.(tag);
    const bytes = encodeSection(tag, plan);
    if (inClosing(tag)) closing.push([tag, bytes]);
    else writer.add(tag, bytes);
  }
  for (const [tag, bytes] of closing) writer.add(tag, bytes);
  return writer.finish();
}

export function encodeSnapshot(model: SnapshotModel): Uint8Array {
  const sink = new MemorySink();
  writeSnapshot(model, sink);
  return sink.bytes();
}
