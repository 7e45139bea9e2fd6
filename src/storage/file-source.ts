// @module fileSource: a ByteSource over a local snapshot file (Node only), read by range like R2.
import { open } from "node:fs/promises";
import { check } from "../format/errors.ts";
import type { ByteSource } from "../format/snapshot.ts";

export async function fileSource(path: string, key = path): Promise<ByteSource> {
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    return {
      key,
      size,
      async read(offset, length) {
        const file = await open(path, "r");
        try {
          const bytes = new Uint8Array(length);
          const { bytesRead } = await file.read(bytes, 0, length, offset);
          check(
            bytesRead === length,
            `${path}: read ${bytesRead} of ${length} bytes at ${offset} (file changed or truncated?)`,
          );
          return bytes;
        } finally {
          await file.close();
        }
      },
    };
  } finally {
    await handle.close();
  }
}
