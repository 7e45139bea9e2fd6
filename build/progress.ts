// @module Progress: a one-line progress display on stderr when it is a terminal, silent otherwise.

export class Progress {
  private readonly enabled: boolean;
  private last = 0;
  private readonly started = Date.now();

  constructor(enabled = Boolean(process.stderr.isTTY) && !process.env.CI) {
    this.enabled = enabled;
  }

  update(label: string, done: number, total: number, unit: "bytes" | "items" = "items"): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < 100 && done < total) return;
    this.last = now;
    const ratio = total > 0 ? Math.min(1, done / total) : 0;
    const width = 24;
    const bar = "█".repeat(Math.round(ratio * width)).padEnd(width, "░");
    const amount = unit === "bytes" ? `${formatBytes(done)} / ${formatBytes(total)}` : `${done} / ${total}`;
    process.stderr.write(
      `\r\x1b[2K${label.padEnd(8)} ${bar} ${(ratio * 100).toFixed(0).padStart(3)}%  ${amount}  ${((now - this.started) / 1000).toFixed(1)}s`,
    );
  }

  done(): void {
    if (this.enabled) process.stderr.write("\r\x1b[2K");
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}
