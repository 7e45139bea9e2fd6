// @module fileSource: a ByteSource over a local snapshot file (Node only), read by range like R2.
import { close, fstat, open, read, readSync } from "node:fs";
import { promisify } from "node:util";
import { check } from "../format/errors.ts";
import type { ByteSource } from "../format/snapshot.ts";

const openFile = promisify(open);
const statFile = promisify(fstat);
const readFile = promisify(read);

/**
 * The descriptor of a source nobody holds any more is closed then: a ByteSource has no close, and
 * opening the file for every read cost an open and a close per page (a fifth of a mixed
 * workload's CPU at 300k objects). It also pins the file's bytes: a snapshot replaced on disk under
 * the same path keeps answering from the file it was opened on, as an immutable snapshot should.
 */
const descriptors = new FinalizationRegistry<number>((fd) => close(fd, () => {}));

/**
 * Reads up to this many bytes (a run of pages) are made synchronously, as SQLite makes its own: the
 * bytes of a snapshot being served sit in the page cache, where a read of a few KiB takes
 * microseconds, and handing it to libuv's thread pool cost a hop there and back and a turn of the
 * event loop for each. In the mixed workload at 1M objects in process, answers came some 20% faster
 * (a 3-hop walk makes some 90 reads). Larger reads (whole sections of megabytes) stay off the event
 * loop, so that other requests go on meanwhile.
 */
const SYNC_READ_BYTES = 256 * 1024;

export async function fileSource(path: string, key = path): Promise<ByteSource> {
  const fd = await openFile(path, "r");
  try {
    const { size } = await statFile(fd);
    const file = new SnapshotFile(path, fd, key, size);
    descriptors.register(file, fd);
    return file;
  } catch (error) {
    close(fd, () => {});
    throw error;
  }
}

class SnapshotFile implements ByteSource {
  private readonly path: string;
  private readonly fd: number;
  readonly key: string;
  readonly size: number;

  constructor(path: string, fd: number, key: string, size: number) {
    this.path = path;
    this.fd = fd;
    this.key = key;
    this.size = size;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const bytes = new Uint8Array(length);
    const bytesRead =
      length <= SYNC_READ_BYTES
        ? readSync(this.fd, bytes, 0, length, offset)
        : (await readFile(this.fd, bytes, 0, length, offset)).bytesRead;
    // `this` is used after the wait: a read in flight keeps the file open (its descriptor is not reused).
    check(
      bytesRead === length,
      `${this.path}: read ${bytesRead} of ${length} bytes at ${offset} (file changed or truncated?)`,
    );
    return bytes;
  }
}
