// @module largeAnalysis: a valid analysis padded with extra objects of long, distinct names — snapshots of several MiB for multi-part uploads.
import petstoreV1 from "../fixtures/examples/petstore-v1.json";

/** An analysis object: petstore's shapes and the generated ones. */
type AnyObject = { id: string; name: string } & Record<string, unknown>;

/**
 * petstore-v1 under `application` at `analyzedAt`, with `extra` more objects whose full names are
 * ~200 pseudo-random characters (so no string sharing shrinks them): about 0.9 KiB of snapshot each (random text has ~200 distinct trigrams per name to index).
 */
export function largeAnalysis(
  application: string,
  analyzedAt: string,
  extra: number,
  seed = 1,
): Omit<typeof petstoreV1, "objects"> & { objects: AnyObject[] } {
  let state = seed >>> 0 || 1;
  const word = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0).toString(36).padStart(7, "0");
  };
  const objects: AnyObject[] = [...petstoreV1.objects];
  for (let i = 0; i < extra; i++) {
    const name = `Generated${i}_${word()}`;
    objects.push({
      ...petstoreV1.objects[0],
      id: String(100000 + i),
      name,
      fullName: `${Array.from({ length: 25 }, word).join(".")}.${name}`,
      checksum: word(),
      sourceLocations: [],
    });
  }
  return { ...petstoreV1, application, analyzedAt, objects };
}
