// @module The HTTP half of the bench: our worker under `wrangler dev` and the baseline's node:http server, answers checked, then timed side by side.
import { freePort, startDevServer } from "../dev-server.ts";
import { startBaselineServer } from "./baseline-server.ts";
import { type Mismatch, compareAnswers, logMismatches } from "./correctness.ts";
import type { Dataset } from "./dataset.ts";
import { jsonClient } from "./http-client.ts";
import type { MixEntry, QueryClass } from "./mix.ts";
import { peakRssBytes, workerdPeaks } from "./process-memory.ts";
import { type SideBySide, type TimingOptions, measureSideBySide } from "./timing.ts";

export interface HttpResults {
  mismatches: Mismatch[];
  /** Per class; null when the answers differ (nothing is timed then). */
  classes: Partial<Record<QueryClass, SideBySide>> | null;
  /** GET /rest/ready on both: the round trip of each HTTP stack alone. */
  floor: SideBySide | null;
  workerd: { pid: number; peakRssBytes: number | null }[];
  baselineServerPeakRssBytes: number | null;
}

/** Publishes the snapshot into an isolated local store, serves both sides on 127.0.0.1, and stops both when done. */
export async function measureOverHttp(dataset: Dataset, mix: readonly MixEntry[], timing: TimingOptions, log: (line: string) => void): Promise<HttpResults> {
  log("publishing the snapshot and starting wrangler dev and the baseline server …");
  const worker = await startDevServer({ files: [dataset.snapshot], readyTimeoutMs: 180_000 });
  try {
    const server = await startBaselineServer(dataset.database, await freePort());
    const [ourClient, baselineClient] = [jsonClient(worker.url), jsonClient(server.url)];
    try {
      const ours = (e: { path: string }) => ourClient.get(e.path);
      const theirs = (e: { path: string }) => baselineClient.get(e.path);
      const mismatches = await compareAnswers(mix, async (e) => JSON.parse(await ours(e)), async (e) => JSON.parse(await theirs(e)), log);
      logMismatches("over HTTP", mismatches, log);
      let classes: HttpResults["classes"] = null;
      let floor: SideBySide | null = null;
      if (mismatches.length === 0) {
        log("timing over HTTP …");
        floor = (await measureSideBySide([{ cls: "ready", path: "/rest/ready" }], ours, theirs, timing)).get("ready")!;
        classes = Object.fromEntries(await measureSideBySide(mix, ours, theirs, timing, log));
      }
      return { mismatches, classes, floor, workerd: workerdPeaks(worker.pid), baselineServerPeakRssBytes: peakRssBytes(server.pid) };
    } finally {
      ourClient.close();
      baselineClient.close();
      await server.stop();
    }
  } finally {
    await worker.stop();
  }
}
