// @module PublishClient: the worker's /publish API over fetch — resumable part uploads, commit, versions, prune (Node or workerd).
import type { AnyErrorCode, ProblemBody } from "../src/contract/errors.ts";
import { sha256Hex } from "../src/digests.ts";
import type { VerifyingAnswer } from "../src/publish/commit.ts";
import type { ManifestVersion } from "../src/storage/manifest.ts";
import type { PublishResult } from "../src/storage/publish.ts";

/** 64 MiB: well under a Worker's 100 MB request body, few requests for a snapshot of hundreds of MB. */
const DEFAULT_PART_SIZE = 64 * 1024 * 1024;
const PART_ATTEMPTS = 4;

/** A refusal or failure of the publish API, with its problem JSON when there was one. */
/** A problem body of the publish API: the read API's shape, with the publish codes besides. */
export type PublishProblem = Omit<ProblemBody, "code"> & { code: AnyErrorCode };

export class PublishApiError extends Error {
  readonly status: number;
  readonly problem: PublishProblem | null;

  constructor(what: string, status: number, problem: PublishProblem | null, text: string) {
    super(`${what}: ${status} ${problem ? `${problem.code}: ${problem.detail}` : text.slice(0, 300)}`);
    this.status = status;
    this.problem = problem;
  }
}

export interface PublishClientOptions {
  /** The worker's base URL, e.g. https://appstruct.example.com. */
  url: string;
  token: string;
  partSize?: number;
  fetch?: (request: Request) => Promise<Response>;
}

interface UploadState {
  partSize: number;
  partCount: number;
  uploaded: number[];
  stored: boolean;
}

export type UploadProgress = (sent: number, total: number) => void;

export class PublishClient {
  private readonly base: string;
  private readonly token: string;
  private readonly partSize: number;
  private readonly send: (request: Request) => Promise<Response>;

  constructor(options: PublishClientOptions) {
    this.base = options.url.replace(/\/+$/, "");
    this.token = options.token;
    this.partSize = options.partSize ?? DEFAULT_PART_SIZE;
    this.send = options.fetch ?? ((request) => fetch(request));
  }

  /** Published versions of `application`, oldest first ([] when none). */
  async versions(application: string): Promise<ManifestVersion[]> {
    const response = await this.request(
      "GET",
      `/publish/applications/${encodeURIComponent(application)}`,
      undefined,
      [404],
    );
    return response.status === 404 ? [] : ((await response.json()) as { versions: ManifestVersion[] }).versions;
  }

  async applications(): Promise<string[]> {
    return ((await (await this.request("GET", "/publish/applications")).json()) as { applications: string[] })
      .applications;
  }

  /** The bytes of a published snapshot. */
  async snapshot(sha256: string): Promise<Uint8Array> {
    return new Uint8Array(await (await this.request("GET", `/publish/snapshots/${sha256}`)).arrayBuffer());
  }

  /**
   * Uploads `bytes` in parts (resuming an upload of the same content under way: only missing parts
   * are sent; a failed part is retried), then asks the worker to verify and publish it. Content the
   * worker stores already is not sent again.
   */
  async publish(bytes: Uint8Array, onProgress: UploadProgress = () => {}): Promise<PublishResult> {
    const sha256 = await sha256Hex(bytes);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.upload(bytes, sha256, onProgress);
      } catch (error) {
        // Another publisher of the same content committed it and cleared the upload under us: the
        // next start finds it stored (or starts afresh), so the publish still completes.
        const vanished = error instanceof PublishApiError && error.problem?.code === "upload_not_found";
        if (!vanished || attempt >= PART_ATTEMPTS) throw error;
      }
    }
  }

  private async upload(bytes: Uint8Array, sha256: string, onProgress: UploadProgress): Promise<PublishResult> {
    const state = await this.json<UploadState>("POST", "/publish/uploads", {
      sha256,
      size: bytes.length,
      partSize: this.partSize,
    });
    if (!state.stored) {
      let sent = state.uploaded.reduce((sum, part) => sum + partBytes(bytes, state.partSize, part).length, 0);
      onProgress(sent, bytes.length);
      const done = new Set(state.uploaded);
      for (let part = 1; part <= state.partCount; part++) {
        if (done.has(part)) continue;
        const body = partBytes(bytes, state.partSize, part);
        await this.withRetries(() => this.request("PUT", `/publish/uploads/${sha256}/parts/${part}`, body));
        sent += body.length;
        onProgress(sent, bytes.length);
      }
    }
    // Verification of a large snapshot takes several requests (a Worker's CPU limit): each answers
    // 202 "verifying" with the checks done so far, and the next resumes there.
    for (;;) {
      const answer = await this.withRetries(() =>
        this.json<PublishResult | VerifyingAnswer>("POST", `/publish/snapshots/${sha256}`),
      );
      if (answer.outcome !== "verifying") return answer;
    }
  }

  /** Abandons the upload of `sha256`: the worker aborts it and deletes what it left. */
  async abort(sha256: string): Promise<void> {
    await this.request("DELETE", `/publish/uploads/${sha256}`);
  }

  /** Removes versions of `application`: all but the newest `keep`, and/or those analyzed at `analyzedAt`. */
  prune(
    application: string,
    selection: { keep?: number; analyzedAt?: string[] },
  ): Promise<{ removed: ManifestVersion[]; kept: ManifestVersion[] }> {
    return this.json("POST", `/publish/applications/${encodeURIComponent(application)}/prune`, selection);
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.request(method, path, body === undefined ? undefined : JSON.stringify(body));
    return (await response.json()) as T;
  }

  private async request(
    method: string,
    path: string,
    body?: string | Uint8Array,
    accepted: number[] = [],
  ): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}` };
    if (typeof body === "string") headers["Content-Type"] = "application/json";
    const response = await this.send(
      new Request(this.base + path, { method, headers, body: body as BodyInit | undefined }),
    );
    if (response.ok || accepted.includes(response.status)) return response;
    const text = await response.text();
    let problem: PublishProblem | null = null;
    try {
      problem = JSON.parse(text) as PublishProblem;
    } catch {
      // not problem JSON (a proxy's error page): the text goes into the message
    }
    throw new PublishApiError(
      `${method} ${path}`,
      response.status,
      problem && typeof problem.code === "string" ? problem : null,
      text,
    );
  }

  /** Runs `attempt` again after network failures, 409 (a concurrent publish of the same content) and 5xx. */
  private async withRetries<T>(attempt: () => Promise<T>): Promise<T> {
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (error) {
        const retriable = !(error instanceof PublishApiError) || error.status === 409 || error.status >= 500;
        if (!retriable || n >= PART_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** n));
      }
    }
  }
}

const partBytes = (bytes: Uint8Array, partSize: number, part: number) =>
  bytes.subarray((part - 1) * partSize, Math.min(bytes.length, part * partSize));
