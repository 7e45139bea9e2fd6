// @module hex: bytes as lower-case hexadecimal, two digits a byte (content addresses, ETags, key digests).
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
