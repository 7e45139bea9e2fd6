// @module The HTTP half of the bench: our service (`appstruct serve` on Node, or the worker under `wrangler dev`) and the baseline's node:http server, answers checked, then timed side by side.
import { freePort, startDevServer } from "../dev-server.ts";
import { startAppstructServe } from "./appstruct-serve.ts";
import { startBaselineServer } from "./baseline-server.ts";
import { compareAnswers, logMismatches, type Mismatch } from "./correctness.ts";
import type { Dataset } from "./dataset.ts";
import { jsonClient } from "./http-client.ts";
import type { MixEntry, QueryClass } from "./mix.ts";
import { peakRssBytes, workerdPeaks } from "./process-memory.ts";
import { measureSideBySide, type SideBySide, type TimingOptions } from "./timing.ts";

/** What serves our side: `appstruct serve` (Node) or the worker under `wrangler dev` (workerd behind wrangler's local proxy). */
export const HTTP_SERVERS = ["node", "wrangler"] as const;
export type HttpServer = (typeof HTTP_SERVERS)[number];

export interface HttpPass {
  mismatches: Mismatch[];
  /** Per class; null when the answers differ (nothing is timed then). */
  classes: Partial<Record<QueryClass, SideBySide>> | null;
  /** GET /rest/ready on both: the round trip of each HTTP stack alone. */
  floor: SideBySide | null;
  /** Peak RSS of our server's processes: the Node process of `appstruct serve`, or each workerd under wrangler (the whole runtime, local R2 included). */
  oursPeakRss: { pid: number; peakRssBytes: number | null }[];
  baselineServerPeakRssBytes: number | null;
}

interface OurServer {
  url: string;
  peaks(): { pid: number; peakRssBytes: number | null }[];
  stop(): Promise<void>;
}

/** Our service over `dataset.snapshot`, with `sectionCacheMB` of decoded sections either way. */
async function startOurs(server: HttpServer, dataset: Dataset, sectionCacheMB: number): Promise<OurServer> {
  if (server === "node") {
    const node = await startAppstructServe(dataset.snapshot, sectionCacheMB);
    return { url: node.url, peaks: () => [{ pid: node.pid, peakRssBytes: peakRssBytes(node.pid) }], stop: node.stop };
  }
  const worker = await startDevServer({
    files: [dataset.snapshot],
    readyTimeoutMs: 180_000,
    vars: { SECTION_CACHE_MB: String(sectionCacheMB) },
  });
  return { url: worker.url, peaks: () => workerdPeaks(worker.pid), stop: worker.stop };
}

/** Starts our `server` and the baseline server on 127.0.0.1, checks every answer, times both interleaved, and stops both. */
export async function measureOverHttp(
  server: HttpServer,
  dataset: Dataset,
  mix: readonly MixEntry[],
  sectionCacheMB: number,
  timing: TimingOptions,
  log: (line: string) => void,
): Promise<HttpPass> {
  const name = server === "node" ? "appstruct serve" : "wrangler dev";
  log(`starting ${name} and the baseline server …`);
  const ours = await startOurs(server, dataset, sectionCacheMB);
  try {
    const baseline = await startBaselineServer(dataset.database, await freePort());
    const [ourClient, baselineClient] = [jsonClient(ours.url), jsonClient(baseline.url)];
    try {
      const oursGet = (e: { path: string }) => ourClient.get(e.path);
      const theirsGet = (e: { path: string }) => baselineClient.get(e.path);
      const mismatches = await compareAnswers(
        mix,
        async (e) => JSON.parse(await oursGet(e)),
        async (e) => JSON.parse(await theirsGet(e)),
        log,
      );
      logMismatches(`over HTTP (${name})`, mismatches, log);
      let classes: HttpPass["classes"] = null;
      let floor: SideBySide | null = null;
      if (mismatches.length === 0) {
        log(`timing over HTTP (${name}) …`);
        floor = (await measureSideBySide([{ cls: "ready", path: "/rest/ready" }], oursGet, theirsGet, timing)).get(
          "ready",
        )!;
        classes = Object.fromEntries(await measureSideBySide(mix, oursGet, theirsGet, timing, log));
      }
      return {
        mismatches,
        classes,
        floor,
        oursPeakRss: ours.peaks(),
        baselineServerPeakRssBytes: peakRssBytes(baseline.pid),
      };
    } finally {
      ourClient.close();
      baselineClient.close();
      await baseline.stop();
    }
  } finally {
    await ours.stop();
  }
}
