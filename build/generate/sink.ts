// @module Where the generator writes: NDJSON lines gathered into chunks of 256 KiB, written as the stream drains.
import { once } from "node:events";

const CHUNK = 1 << 18;

export class Sink {
  out: NodeJS.WritableStream;
  buf = "";
  constructor(out: NodeJS.WritableStream) {
    this.out = out;
  }
  line(s: string): void {
    this.buf += `${s}\n`;
  }
  get full(): boolean {
    return this.buf.length >= CHUNK;
  }
  async flush(): Promise<void> {
    if (this.buf.length === 0) return;
    const chunk = this.buf;
    this.buf = "";
    if (!this.out.write(chunk)) await once(this.out, "drain");
  }
}
