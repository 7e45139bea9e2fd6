// @module readNdjson: the records of an NDJSON analysis, line by line, without holding the file in memory.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

export type AnalysisRecord = Record<string, unknown> & { kind?: string };

/** Yields the header (first line, `kind` undefined) and then every record, parsed. Blank lines are skipped. */
export async function* readNdjson(path: string): AsyncGenerator<AnalysisRecord> {
  if (!path.endsWith(".ndjson")) throw new Error(`the cross-check reads NDJSON analyses (.ndjson), got ${path}`);
  const lines = createInterface({ input: createReadStream(path, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  let number = 0;
  for await (const line of lines) {
    number++;
    if (line.trim() === "") continue;
    try {
      yield JSON.parse(line) as AnalysisRecord;
    } catch (error) {
      throw new Error(`${path} line ${number} is not JSON: ${(error as Error).message}`);
    }
  }
}
