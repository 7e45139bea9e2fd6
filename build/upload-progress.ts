// @module uploadProgress: bytes sent and rate on stderr — a live line on a terminal, a line per part in CI logs.
import { formatBytes, Progress } from "./progress.ts";
import type { UploadProgress } from "./publish-client.ts";

const rate = (bytes: number, ms: number) => `${formatBytes(ms > 0 ? Math.round((bytes * 1000) / ms) : 0)}/s`;

/** A progress callback for the upload of `label`; `done()` clears a terminal line. */
export function uploadProgress(
  label: string,
  interactive = Boolean(process.stderr.isTTY) && !process.env.CI,
): { update: UploadProgress; done(): void } {
  const started = Date.now();
  let first: number | null = null;
  if (interactive) {
    const bar = new Progress(true);
    return {
      update: (sent, total) => bar.update("upload", sent, total, "bytes"),
      done: () => bar.done(),
    };
  }
  return {
    update(sent, total) {
      // The first report is what a resumed upload had sent before: not part of this run's rate.
      if (first === null) first = sent;
      if (sent === first && sent !== total) return;
      process.stderr.write(
        `${label}: uploaded ${formatBytes(sent)} of ${formatBytes(total)} (${rate(sent - first, Date.now() - started)})\n`,
      );
    },
    done() {},
  };
}
