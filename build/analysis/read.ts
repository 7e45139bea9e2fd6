// @module Reads an analysis file (.json whole, .ndjson streamed line by line) into an AnalysisCollector.
import { readFile, stat } from "node:fs/promises";
import { AnalysisCollector, type ValidatedAnalysis } from "./collector.ts";
import { collectDocument, jsonLocator } from "./document.ts";
import { AnalysisRefused } from "./faults.ts";
import { type LineHooks, readLines } from "./lines.ts";
import { LinkThread } from "./link-thread.ts";
import { scannedLink, scanPlainLink } from "./plain-links.ts";
import { RECORD_KINDS, type RecordKind } from "./schema.ts";

export type Progress = (bytesRead: number, totalBytes: number) => void;

/** Reads and validates the analysis at `path`; throws AnalysisRefused listing every fault. */
export async function readAnalysis(
  path: string,
  onProgress?: Progress,
  options?: ReadOptions,
): Promise<ValidatedAnalysis> {
  if (/\.ndjson$/i.test(path)) return readNdjson(path, onProgress, options);
  if (/\.json$/i.test(path)) return readJson(path, onProgress);
  const collector = new AnalysisCollector(() => "document");
  collector.fault("document", null, `${path}: the file name must end in .json or .ndjson`);
  throw new AnalysisRefused(collector.faults);
}

// V8 cannot hold a string much over 512 MiB; such documents must use .ndjson.
const MAX_JSON_BYTES = 500 * 1024 * 1024;

async function readJson(path: string, onProgress?: Progress): Promise<ValidatedAnalysis> {
  const collector = new AnalysisCollector(jsonLocator);
  const { size } = await stat(path);
  if (size > MAX_JSON_BYTES) {
    collector.fault(
      "document",
      null,
      `is ${size} bytes; a .json analysis may be at most ${MAX_JSON_BYTES} bytes, use .ndjson for larger ones`,
    );
    throw new AnalysisRefused(collector.faults);
  }
  let document: unknown;
  try {
    document = JSON.parse((await readFile(path, "utf8")).replace(/^\uFEFF/, ""));
  } catch (error) {
    collector.fault("document", null, `is not valid JSON: ${(error as Error).message}`);
    throw new AnalysisRefused(collector.faults);
  }
  onProgress?.(size, size);
  return collectDocument(collector, document);
}

/** Analyses from this size on have their link lines scanned on a thread of their own (LinkThread): below it, starting the thread costs more than it saves. */
const LINK_THREAD_FROM_BYTES = 64 << 20;

export interface ReadOptions {
  /** Scan the link lines on a worker thread: by default, for files of LINK_THREAD_FROM_BYTES and more. */
  linkThread?: boolean;
}

async function readNdjson(path: string, onProgress?: Progress, options: ReadOptions = {}): Promise<ValidatedAnalysis> {
  const collector = new AnalysisCollector((_kind, line) => `line ${line}`);
  const { size } = await stat(path);
  let sawHeader = false;
  const thread = (options.linkThread ?? size >= LINK_THREAD_FROM_BYTES) ? new LinkThread(path) : null;
  // The slot of each id the thread numbered, found once: -1 until then.
  let slotOfThreadId = new Int32Array(0);
  const slotOf = (n: number, link: LinkThread): number => {
    if (n >= slotOfThreadId.length) {
      const grown = new Int32Array(Math.max(link.idCount, 2 * slotOfThreadId.length)).fill(-1);
      grown.set(slotOfThreadId);
      slotOfThreadId = grown;
    }
    const slot = slotOfThreadId[n];
    return slot >= 0 ? slot : (slotOfThreadId[n] = collector.slotOfKey(link.idKey(n)));
  };
  // A plain link line is taken only past the header: before it, it is a fault, found by reading it
  // as any other line.
  const hooks: LineHooks = thread
    ? {
        take: (_bytes, _start, _end, lineNumber) => thread.linesFrom(lineNumber),
        onTaken: (lineNumber, lines) => {
          if (!sawHeader) return false;
          const { link } = thread;
          for (let i = 0; i < lines; i++) {
            thread.linkAt(i);
            const from = slotOf(link.from, thread);
            collector.addLinkOfSlots(from, slotOf(link.to, thread), link.type, link.escalated, lineNumber + i);
          }
        },
        beforeLines: (end) => thread.ready(end),
      }
    : {
        take: (bytes, start, end) => (scanPlainLink(bytes, start, end) ? 1 : 0),
        // No line is scanned between the take and this: scannedLink still holds its link.
        onTaken: (lineNumber) => {
          if (!sawHeader) return false;
          const { from, to, type, escalated } = scannedLink;
          collector.addPlainLink(from, to, type, escalated === true, lineNumber);
        },
      };
  try {
    await readLines(path, read, { ...hooks, afterLines: (end) => onProgress?.(end, size) });
  } finally {
    await thread?.close();
  }
  onProgress?.(size, size);
  if (!sawHeader) collector.fault("document", null, "is empty: the first line must be the header");
  return collector.finish();

  /** Reads a line not taken as a plain link line. */
  function read(text: string, lineNumber: number): boolean | undefined {
    if (lineNumber === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim() === "") return;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      collector.fault(`line ${lineNumber}`, null, `is not valid JSON: ${(error as Error).message}`);
      return;
    }
    if (!sawHeader) {
      if (record && typeof record === "object" && "kind" in record) {
        collector.fault(
          `line ${lineNumber}`,
          "kind",
          "comes before the header: the first line must be the header (format, application, analyzedAt)",
        );
        return;
      }
      sawHeader = true;
      const arrays = Object.values(RECORD_KINDS)
        .map((k) => k.array)
        .filter((a) => record && typeof record === "object" && a in record);
      if (arrays.length)
        collector.fault(
          `line ${lineNumber}`,
          arrays[0],
          'an .ndjson header carries no arrays: put each record on a line of its own with its "kind"',
        );
      // A format this build does not read: stop at once, its records would only add noise.
      return collector.acceptHeader(record, lineNumber);
    }
    const kind = (record as { kind?: unknown } | null)?.kind;
    if (typeof kind !== "string" || !(kind in RECORD_KINDS)) {
      collector.fault(
        `line ${lineNumber}`,
        "kind",
        `must be one of ${Object.keys(RECORD_KINDS)
          .map((k) => `"${k}"`)
          .join(", ")}, found ${kind === undefined ? "none" : JSON.stringify(kind)}`,
      );
      return;
    }
    collector.record(kind as RecordKind, record, lineNumber);
  }
}
