// @module The worker as a publish target (`appstruct publish --url`): status bases fetched from it, snapshots uploaded in parts.
import type { PublishTarget } from "./publish.ts";
import type { PublishClient } from "./publish-client.ts";
import { uploadProgress } from "./upload-progress.ts";

export function remoteTarget(client: PublishClient): PublishTarget {
  return {
    versions: (application) => client.versions(application),
    snapshot: (sha256) => client.snapshot(sha256),
    async publish(bytes, path) {
      const progress = uploadProgress(path);
      try {
        return await client.publish(bytes, progress.update);
      } finally {
        progress.done();
      }
    },
  };
}
