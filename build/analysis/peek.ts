// @module peekInput: tells a snapshot from an analysis and reads just enough to order a batch (application, analyzedAt).
import { open, readFile } from "node:fs/promises";
import { MAGIC } from "../../src/format/container.ts";
import { Snapshot } from "../../src/format/snapshot.ts";
import { parseRfc3339 } from "../../src/rules.ts";
import { fileSource } from "../../src/storage/file-source.ts";

export interface PeekedInput {
  path: string;
  kind: "snapshot" | "analysis";
  /** Undefined when the file is too broken to tell; compiling it reports why. */
  application?: string;
  analyzedAtMs?: number;
}

async function firstBytes(path: string, length: number): Promise<Uint8Array> {
  const file = await open(path, "r");
  try {
    const bytes = new Uint8Array(length);
    const { bytesRead } = await file.read(bytes, 0, length, 0);
    return bytes.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

export async function peekInput(path: string): Promise<PeekedInput> {
  const head = await firstBytes(path, 64 * 1024);
  if (String.fromCharCode(...head.subarray(0, 8)) === MAGIC) {
    try {
      // Header, table of contents and metadata only: a snapshot of hundreds of MB is not read whole.
      const { meta } = await Snapshot.open(await fileSource(path));
      return { path, kind: "snapshot", application: meta.application, analyzedAtMs: meta.analyzedAtMs };
    } catch {
      return { path, kind: "snapshot" };
    }
  }
  try {
    const header = /\.ndjson$/i.test(path)
      ? JSON.parse(
          new TextDecoder()
            .decode(head)
            .replace(/^\uFEFF/, "")
            .split("\n")[0],
        )
      : JSON.parse((await readFile(path, "utf8")).replace(/^\uFEFF/, ""));
    const analyzedAtMs =
      typeof header?.analyzedAt === "string" ? (parseRfc3339(header.analyzedAt) ?? undefined) : undefined;
    return {
      path,
      kind: "analysis",
      application: typeof header?.application === "string" ? header.application : undefined,
      analyzedAtMs,
    };
  } catch {
    return { path, kind: "analysis" };
  }
}
