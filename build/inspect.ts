// @module inspect: what a snapshot file holds — header, sections with sizes and checksum state, metadata — and whether it passes what publishing verifies.
import { readFile } from "node:fs/promises";
import { decodeHeader, decodeToc, HEADER_SIZE, SECTION_REQUIRED } from "../src/format/container.ts";
import { crc32 } from "../src/format/crc32.ts";
import { CorruptSnapshotError } from "../src/format/errors.ts";
import { decodeMeta } from "../src/format/meta.ts";
import type { SnapshotMeta } from "../src/format/model.ts";
import { memorySource } from "../src/format/snapshot.ts";
import { verifySnapshotSource } from "../src/format/verify.ts";
import { sha256Hex } from "./compile/compile.ts";
import { formatBytes } from "./progress.ts";

export interface InspectReport {
  file: string;
  size: number;
  sha256: string;
  formatVersion: number;
  sections: {
    tag: string;
    offset: number;
    length: number;
    required: boolean;
    checksum: "ok" | "mismatch" | "truncated";
  }[];
  meta: SnapshotMeta | null;
  /**
   * All of the snapshot as the read API will read it (verifySnapshotSource, what publishing checks):
   * "passed", what failed, or "skipped" when a checksum or the metadata is wrong already.
   */
  verification: "passed" | "skipped" | { failed: string };
  ok: boolean;
}

export async function inspectSnapshot(path: string): Promise<InspectReport> {
  const bytes = new Uint8Array(await readFile(path));
  const header = decodeHeader(bytes);
  const toc = decodeToc(header, bytes.slice(header.tocOffset, header.tocOffset + header.tocLength));
  const sections = [...toc.values()].map((e) => ({
    tag: e.tag,
    offset: e.offset,
    length: e.length,
    required: (e.flags & SECTION_REQUIRED) !== 0,
    checksum: (e.offset + e.length > bytes.length
      ? "truncated"
      : crc32(bytes.subarray(e.offset, e.offset + e.length)) === e.crc
        ? "ok"
        : "mismatch") as "ok" | "mismatch" | "truncated",
  }));
  const metaEntry = toc.get("META");
  let meta: SnapshotMeta | null = null;
  if (metaEntry && sections.find((s) => s.tag === "META")?.checksum === "ok") {
    try {
      meta = decodeMeta(bytes.subarray(metaEntry.offset, metaEntry.offset + metaEntry.length));
    } catch (error) {
      if (!(error instanceof CorruptSnapshotError)) throw error;
    }
  }
  const intact = header.fileLength === bytes.length && meta !== null && sections.every((s) => s.checksum === "ok");
  const verified = intact ? await verification(bytes) : "skipped";
  return {
    file: path,
    size: bytes.length,
    sha256: sha256Hex(bytes),
    formatVersion: header.version,
    sections,
    meta,
    verification: verified,
    ok: verified === "passed",
  };
}

async function verification(bytes: Uint8Array): Promise<InspectReport["verification"]> {
  try {
    await verifySnapshotSource(memorySource(bytes));
    return "passed";
  } catch (error) {
    if (!(error instanceof CorruptSnapshotError)) throw error;
    return { failed: error.message };
  }
}

export function formatInspectReport(r: InspectReport): string {
  const lines = [
    `${r.file}: appstruct snapshot, format version ${r.formatVersion}, ${formatBytes(r.size)} (${r.size} bytes)`,
    `sha256       ${r.sha256}`,
  ];
  if (r.meta) {
    const m = r.meta;
    lines.push(
      `application  ${m.application}`,
      `analyzedAt   ${m.analyzedAt}`,
      `analyzer     ${m.analyzer ? `${m.analyzer.name} ${m.analyzer.version}` : "(not given)"}`,
      `statusBase   ${m.statusBase ?? "(none: first analysis)"}`,
      `counts       ${m.counts.objects} objects, ${m.counts.links} links, ${m.counts.files} files, ${m.counts.postIts} post-its`,
      `taxonomy     ${m.counts.levels.map((n, i) => `L${i + 1} ${n}`).join(", ")}${m.taxonomyDerived ? " (derived by default rules)" : ""}`,
    );
  }
  lines.push(`sections     header ${HEADER_SIZE} B + table of contents`);
  for (const s of r.sections)
    lines.push(
      `  ${s.tag}  ${formatBytes(s.length).padStart(10)}  at ${String(s.offset).padStart(10)}  ${s.checksum === "ok" ? "checksum ok" : `CHECKSUM ${s.checksum.toUpperCase()}`}${s.required ? "" : "  (optional)"}`,
    );
  const v = r.verification;
  lines.push(
    `verified     ${v === "passed" ? "every section decoded and cross-checked, as publishing checks it" : v === "skipped" ? "not further (a checksum or the metadata is wrong)" : `FAILED: ${v.failed}`}`,
  );
  lines.push(r.ok ? "verdict      ok" : "verdict      CORRUPT");
  return lines.join("\n");
}
