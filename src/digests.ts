// @module SHA-256 by WebCrypto, the same in Node and workerd (content addresses, digests of keys and tokens), and digests compared in constant time.
import { hex } from "./hex.ts";

const encoder = new TextEncoder();

/** The SHA-256 of `data`, text taken as UTF-8. */
export async function sha256(data: string | Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", typeof data === "string" ? encoder.encode(data) : data));
}

/** The SHA-256 of `bytes` in lower-case hex: a snapshot's content address. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return hex(await sha256(bytes));
}

/** Whether two digests are equal, in a time that does not depend on where they differ (secrets' digests are compared so). */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i % b.length];
  return diff === 0;
}
