// @module The publish API under /publish: bearer-token auth, resumable uploads, commit, versions, prune (the /rest API stays read-only).
import { type Context, Hono } from "hono";
import { z } from "zod";
import { ApiError } from "../contract/errors.ts";
import { decodeApplicationName } from "../http/application.ts";
import { parseRfc3339, publishableNameProblem, RFC3339_EXPECTED } from "../rules.ts";
import { StoreCatalog } from "../storage/catalog.ts";
import { isolateCaches, sectionBudgetBytes } from "../storage/isolate-caches.ts";
import { listedVersion, snapshotKey } from "../storage/manifest.ts";
import { removeVersions } from "../storage/prune.ts";
import { readManifest } from "../storage/publish.ts";
import { R2Store } from "../storage/r2-store.ts";
import { requirePublishToken } from "./auth.ts";
import { commitSnapshot, DEFAULT_VERIFY_MS } from "./commit.ts";
import { MAX_PART_COUNT, MAX_PART_SIZE, MAX_SNAPSHOT_BYTES, MIN_PART_SIZE, Uploads } from "./uploads.ts";
import { wholeNumberProblem } from "./whole-number.ts";

/** The worker bindings the publish API uses (absent on `appstruct serve`: publishing is then disabled). */
export interface PublishBindings {
  SNAPSHOTS?: R2Bucket;
  PUBLISH_TOKEN?: string;
  /** How long (ms) one commit request verifies before answering 202 "verifying"; default DEFAULT_VERIFY_MS. */
  PUBLISH_VERIFY_MS?: string;
  /** The read API's section budget: its cache lends verification room. */
  SECTION_CACHE_MB?: string;
}

function verifyStepMs(env: PublishBindings): number {
  const configured = env.PUBLISH_VERIFY_MS;
  if (configured === undefined) return DEFAULT_VERIFY_MS;
  const problem = wholeNumberProblem(configured, 0, 60_000);
  if (problem) throw new Error(`the PUBLISH_VERIFY_MS variable ${problem}`);
  return Number(configured);
}

type PublishEnv = { Bindings: PublishBindings | undefined };

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lower-case hex digits (the snapshot's SHA-256)");
/** A JSON number held to wholeNumberProblem, as path segments and headers are. */
const WholeNumber = (min: number, max: number) =>
  z.number().superRefine((n, ctx) => {
    const problem = wholeNumberProblem(n, min, max);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const BeginBody = z.object({
  sha256: Sha256,
  // Bounded by MAX_SNAPSHOT_BYTES after parsing: a larger size is answered 413, not 400.
  size: WholeNumber(1, Number.MAX_SAFE_INTEGER),
  partSize: WholeNumber(MIN_PART_SIZE, MAX_PART_SIZE),
});
const PruneBody = z
  .object({
    keep: WholeNumber(1, Number.MAX_SAFE_INTEGER).optional(),
    // The read API's rule for dates (its `date` parameter), so a version is named as it is read.
    analyzedAt: z
      .array(z.string().refine((s) => parseRfc3339(s) !== null, `must be ${RFC3339_EXPECTED}`))
      .max(1000)
      .optional(),
  })
  .refine(
    (b) => b.keep !== undefined || b.analyzedAt !== undefined,
    "give keep (versions to keep) and/or analyzedAt (versions to remove)",
  );

async function body<T>(c: Context<PublishEnv>, schema: z.ZodType<T>): Promise<T> {
  let json: unknown;
  try {
    json = await c.req.json();
  } catch {
    throw new ApiError("invalid_parameter", "the request body must be JSON", { parameter: "body" });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError("invalid_parameter", `${issue.path.join(".") || "body"}: ${issue.message}`, {
      parameter: issue.path.join(".") || "body",
    });
  }
  return parsed.data;
}

/** The whole number in path segment or header `name` (text), held to wholeNumberProblem. */
function wholeNumberParam(name: string, text: string, min: number, max: number): number {
  const problem = wholeNumberProblem(text, min, max);
  if (problem) throw new ApiError("invalid_parameter", `${name} ${problem}`, { parameter: name });
  return Number(text);
}

const sha256Param = (c: Context<PublishEnv>) => {
  const parsed = Sha256.safeParse(c.req.param("sha256"));
  if (!parsed.success)
    throw new ApiError("invalid_parameter", `sha256 ${parsed.error.issues[0].message}`, { parameter: "sha256" });
  return parsed.data;
};

/** `/publish/applications/{name}/...`: the name segment as sent, decoded once as the read API does. */
/** The `{name}` of a publish route: a valid name that can be published (its manifest key fits R2). */
function applicationParam(c: Context<PublishEnv>): string {
  const name = decodeApplicationName(new URL(c.req.url).pathname.split("/")[3]);
  const problem = publishableNameProblem(name);
  if (problem) throw new ApiError("invalid_application_name", `the application name ${problem}`, { parameter: "name" });
  return name;
}

const bucketOf = (c: Context<PublishEnv>) => c.env!.SNAPSHOTS!;

export const publishApi = new Hono<PublishEnv>();

publishApi.use("*", async (c, next) => {
  // Without a bucket (the Node server) there is nothing to publish to: disabled like a missing token.
  await requirePublishToken(c.env?.SNAPSHOTS ? c.env.PUBLISH_TOKEN : undefined, c.req.header("Authorization"));
  c.header("Cache-Control", "no-store");
  await next();
});

publishApi.post("/uploads", async (c) => {
  const { sha256, size, partSize } = await body(c, BeginBody);
  if (size > MAX_SNAPSHOT_BYTES)
    throw new ApiError(
      "payload_too_large",
      `size: a snapshot of ${size} bytes is larger than this server accepts (${MAX_SNAPSHOT_BYTES} bytes at most)`,
      { parameter: "size" },
    );
  const stored = await new R2Store(bucketOf(c)).head(snapshotKey(sha256));
  if (stored?.size === size) return c.json({ sha256, size, stored: true });
  return c.json({ ...(await new Uploads(bucketOf(c)).begin(sha256, size, partSize)), stored: false });
});

publishApi.get("/uploads/:sha256", async (c) => c.json(await new Uploads(bucketOf(c)).find(sha256Param(c))));

publishApi.put("/uploads/:sha256/parts/:part", async (c) => {
  const sha256 = sha256Param(c);
  const part = wholeNumberParam("part", c.req.param("part"), 1, MAX_PART_COUNT);
  const length = c.req.header("Content-Length");
  const declared = length === undefined ? null : wholeNumberParam("Content-Length", length, 0, Number.MAX_SAFE_INTEGER);
  return c.json(await new Uploads(bucketOf(c)).putPart(sha256, part, c.req.raw.body, declared));
});

publishApi.delete("/uploads/:sha256", async (c) => {
  await new Uploads(bucketOf(c)).discard(sha256Param(c));
  return c.body(null, 204);
});

publishApi.post("/snapshots/:sha256", async (c) => {
  const bucket = bucketOf(c);
  const { sections } = isolateCaches(sectionBudgetBytes(c.env!.SECTION_CACHE_MB));
  const answer = await commitSnapshot(bucket, new Uploads(bucket), sha256Param(c), verifyStepMs(c.env!), sections);
  return c.json(answer, answer.outcome === "verifying" ? 202 : 200);
});

publishApi.get("/snapshots/:sha256", async (c) => {
  const sha256 = sha256Param(c);
  const object = await bucketOf(c).get(snapshotKey(sha256));
  if (!object) throw new ApiError("route_not_found", `no snapshot ${sha256} is stored`);
  return c.body(object.body, 200, {
    "Content-Type": "application/octet-stream",
    "Content-Length": String(object.size),
    ETag: object.httpEtag,
  });
});

publishApi.get("/applications", async (c) =>
  c.json({ applications: await new StoreCatalog(new R2Store(bucketOf(c))).applications() }),
);

publishApi.get("/applications/:name", async (c) => {
  const application = applicationParam(c);
  const manifest = await readManifest(new R2Store(bucketOf(c)), application);
  if (!manifest)
    throw new ApiError(
      "application_not_found",
      `no analysis of application ${JSON.stringify(application)} is published`,
    );
  return c.json({ application, versions: manifest.versions.map(listedVersion) });
});

publishApi.post("/applications/:name/prune", async (c) => {
  const application = applicationParam(c);
  const { keep, analyzedAt } = await body(c, PruneBody);
  const store = new R2Store(bucketOf(c));
  if (!(await readManifest(store, application)))
    throw new ApiError(
      "application_not_found",
      `no analysis of application ${JSON.stringify(application)} is published`,
    );
  return c.json({
    application,
    ...(await removeVersions(store, application, { keep, analyzedAtMs: analyzedAt?.map((s) => parseRfc3339(s)!) })),
  });
});

const ALLOWED: [string, string][] = [
  ["/uploads", "POST"],
  ["/uploads/:sha256", "GET, DELETE"],
  ["/uploads/:sha256/parts/:part", "PUT"],
  ["/snapshots/:sha256", "GET, POST"],
  ["/applications", "GET"],
  ["/applications/:name", "GET"],
  ["/applications/:name/prune", "POST"],
];
for (const [path, allow] of ALLOWED)
  publishApi.all(path, (c) => {
    throw new ApiError("method_not_allowed", `${c.req.method} is not allowed here; use ${allow}`, {
      headers: { Allow: allow },
    });
  });
