// @module Contract check (docs/contract.md): every worked case through Prism's validating proxy in front of `wrangler dev`; answers must be the worked ones and fit the OpenAPI document.
//
// npm run contract        (node scripts/contract.ts)
//
// 1. writes the OpenAPI document to .ci/openapi.json (as `npm run lint:openapi` does);
// 2. publishes the petstore and corner analyses into a temporary wrangler persistence folder and
//    runs `wrangler dev` on 127.0.0.1:<A> over it (scripts/dev-server.ts);
// 3. runs `prism proxy .ci/openapi.json http://127.0.0.1:<A> --port <B> --errors` on 127.0.0.1;
// 4. sends every case of test/fixtures/examples/requests.json and test/fixtures/corner/requests.json
//    through the proxy with runCase, and reads Prism's verdict (its problem+json errors and the
//    `sl-violations` header).
//
// Verdicts: "ok" — the worked answer, no violation. "request violation on an error case
// (expected)" — Prism refuses a request whose worked answer is a 4xx (the API answers 400 for
// values the document's schemas exclude, 404/405 for routes it does not describe); the case is then
// checked directly against wrangler dev, so its answer is still verified. Failures: any response
// violation, a request violation on a 2xx case, or an answer differing from the worked one.
// Exit 0 only without failures. See docs/contract.md.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../build/store.ts";
import { openApiDocument } from "../src/http/openapi.ts";
import { idSubstitution, type RequestCase, runCase } from "../test/support/request-cases.ts";
import { childEnv, freePort, HOST, keepOutput, killOnExit, startDevServer, stopGroup } from "./dev-server.ts";

/** The whole run never takes longer than this: past it everything is stopped and the run fails. */
const WATCHDOG_MS = 240_000;
const REQUEST_TIMEOUT_MS = 20_000;
const DOCUMENT = join(PROJECT_ROOT, ".ci", "openapi.json");
const PRISM = join(PROJECT_ROOT, "node_modules", ".bin", "prism");
const EXAMPLES = join(PROJECT_ROOT, "test", "fixtures", "examples");
const CORNER = join(PROJECT_ROOT, "test", "fixtures", "corner");

const SUITES = [
  { title: "test/fixtures/examples/requests.json", cases: join(EXAMPLES, "requests.json"), ids: false },
  { title: "test/fixtures/corner/requests.json", cases: join(CORNER, "requests.json"), ids: true },
];
const FILES = [
  join(EXAMPLES, "petstore-v1.json"),
  join(EXAMPLES, "petstore-v2.json"),
  join(CORNER, "corner-v1.json"),
  join(CORNER, "corner-v2.json"),
];

/** Prism's own errors: problem+json whose type is one of these. */
const PRISM_ERRORS = "https://stoplight.io/prism/errors#";
/** Prism errors that mean "the request is outside the document" (not forwarded). */
const REQUEST_REFUSALS = new Set([
  "UNPROCESSABLE_ENTITY",
  "NO_PATH_MATCHED_ERROR",
  "NO_METHOD_MATCHED_ERROR",
  "NO_SERVER_MATCHED_ERROR",
  "UNAUTHORIZED",
]);

interface Violation {
  side: "request" | "response" | "unknown";
  severity: string;
  message: string;
}

interface Verdict {
  suite: string;
  case: RequestCase;
  kind: "ok" | "expected" | "failure";
  details: string[];
}

const started = Date.now();
/** What to undo on the way out (children to stop, the temporary folder), undone newest first. */
const stops: (() => Promise<void>)[] = [];
let stopping = false;
let cleaning: Promise<void> | undefined;
const cleanUp = () =>
  (cleaning ??= (async () => {
    stopping = true;
    while (stops.length > 0) await stops.pop()!().catch(() => {});
  })());

const watchdog = setTimeout(() => {
  console.error(`contract: stopped after ${WATCHDOG_MS / 1000} s (watchdog)`);
  void cleanUp().finally(() => process.exit(1));
}, WATCHDOG_MS);
watchdog.unref();
// `on`, not `once`: signal-exit (loaded with wrangler) re-raises a signal no other listener is left
// for, which would end this process before its children are stopped.
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    if (!stopping) console.error(`contract: ${signal}, stopping`);
    void cleanUp().finally(() => process.exit(130));
  });

type PrismViolation = { location?: string[]; severity?: string; message?: string };

/** One of Prism's violations; its location starts with "request" or "response" when Prism says which. */
function violation(v: PrismViolation, side: Violation["side"]): Violation {
  const location = v.location ?? [];
  const named = location[0] === "request" || location[0] === "response";
  return {
    side: named ? (location[0] as Violation["side"]) : side,
    severity: v.severity ?? "?",
    message: `${(named ? location.slice(1) : location).join(".")} ${v.message ?? ""}`.trim(),
  };
}

/** Violations Prism reports in the `sl-violations` header of an answer. */
function headerViolations(response: Response): Violation[] {
  const raw = response.headers.get("sl-violations");
  if (!raw) return [];
  try {
    return (JSON.parse(raw) as PrismViolation[]).map((v) => violation(v, "unknown"));
  } catch {
    return [{ side: "unknown", severity: "?", message: `unreadable sl-violations header: ${raw.slice(0, 300)}` }];
  }
}

/** Prism's own error answer (problem+json with a Prism type), or undefined for the API's answer. */
function prismError(
  response: Response,
  text: string,
): { type: string; detail: string; violations: Violation[] } | undefined {
  if (!(response.headers.get("content-type") ?? "").startsWith("application/problem+json")) return undefined;
  let body: { type?: string; detail?: string; validation?: PrismViolation[] };
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body.type !== "string" || !body.type.startsWith(PRISM_ERRORS)) return undefined;
  const type = body.type.slice(PRISM_ERRORS.length);
  // VIOLATIONS: the answer broke the document; the others refuse the request before forwarding it.
  const side = type === "VIOLATIONS" ? "response" : "request";
  return { type, detail: body.detail ?? "", violations: (body.validation ?? []).map((v) => violation(v, side)) };
}

/** `prism proxy <document> <upstream> --errors` on 127.0.0.1, once it answers. */
async function startPrism(upstream: string): Promise<{ url: string; output: () => string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [PRISM, "proxy", DOCUMENT, upstream, "--host", HOST, "--port", String(port), "--errors", "--verboseLevel", "warn"],
    {
      cwd: PROJECT_ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: childEnv(),
    },
  );
  const output = keepOutput(child);
  const forget = killOnExit(child);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await stopGroup(child);
      forget();
    })());
  stops.push(stop);
  const url = `http://${HOST}:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism exited (${child.exitCode}):\n${output()}`);
    try {
      const response = await fetch(`${url}/rest/ready`, { signal: AbortSignal.timeout(2_000) });
      await response.text();
      if (response.status === 200) return { url, output, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`prism not ready on ${url} after 60 s:\n${output()}`);
    await new Promise((done) => setTimeout(done, 250));
  }
}

/**
 * Why Prism cannot carry this request faithfully, or undefined. A malformed percent-encoding (not
 * UTF-8, or not %XX) names no string the document could describe; Prism 5.16 stops answering on
 * one in the path (its path matcher's decodeURIComponent throws) and turns one in the query into
 * U+FFFD before forwarding, so the API would see another request.
 */
function unfaithful(path: string): string | undefined {
  const [pathname, query = ""] = path.split(/\?(.*)/s, 2);
  for (const segment of pathname.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return `malformed percent-encoding in path segment "${segment}"`;
    }
  }
  for (const part of query.split("&")) {
    try {
      decodeURIComponent(part.replace(/\+/g, " "));
    } catch {
      return `malformed percent-encoding in query "${part}"`;
    }
  }
  return undefined;
}

async function main(): Promise<number> {
  mkdirSync(join(PROJECT_ROOT, ".ci"), { recursive: true });
  writeFileSync(DOCUMENT, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
  console.log(`contract: wrote ${DOCUMENT}`);

  const persistDir = await mkdtemp(join(tmpdir(), "appstruct-contract-"));
  stops.push(() => rm(persistDir, { recursive: true, force: true, maxRetries: 5 }));
  // Interrupted while publishing, wrangler's platform proxy may still write there after rm.
  process.once("exit", () => rmSync(persistDir, { recursive: true, force: true }));
  const server = await startDevServer({ files: FILES, persistDir });
  stops.push(server.stop);
  console.log(
    `contract: wrangler dev ${server.url} over ${server.persistDir} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );

  let prism = await startPrism(server.url);
  let proxy = prism.url;
  console.log(`contract: prism proxy ${proxy} → ${server.url} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  /** Prism stopped answering (it does on some inputs): a fresh one for the following cases. */
  const restartPrism = async () => {
    if (stopping) throw new Error("stopping");
    await prism.stop();
    prism = await startPrism(server.url);
    proxy = prism.url;
  };

  // Every response through the proxy, kept so the case's own answer (the last one) can be examined.
  let seen: { response: Response; text: Promise<string> }[] = [];
  const throughProxy = async (request: Request): Promise<Response> => {
    const response = await fetch(request, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const copy = response.clone();
    seen.push({ response: copy, text: copy.text().catch(() => "") });
    return response;
  };
  const direct = (request: Request): Promise<Response> =>
    fetch(request, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

  const verdicts: Verdict[] = [];
  for (const suite of SUITES) {
    const cases = JSON.parse(readFileSync(suite.cases, "utf8")) as RequestCase[];
    for (const c of cases) {
      const verdict = (kind: Verdict["kind"], details: string[]) =>
        verdicts.push({ suite: suite.title, case: c, kind, details });
      const isError = c.status >= 400 && c.status < 500;
      /** A request the document excludes: expected on an error case, whose answer is then checked directly. */
      const excluded = async (why: string, details: string[] = []) => {
        const answer = await runCase(direct, server.url, c, suite.ids ? idSubstitution(direct, server.url) : undefined);
        const problems = answer.problems.map((p) => `direct answer: ${p}`);
        if (!isError)
          return verdict("failure", [
            ...details,
            `the document excludes a request the API answers ${c.status}: ${why}`,
            ...(problems.length > 0 ? problems : ["(direct answer: the worked one)"]),
          ]);
        verdict(problems.length > 0 || details.length > 0 ? "failure" : "expected", [...details, why, ...problems]);
      };

      const cannot = unfaithful(c.request.slice(c.request.indexOf(" ") + 1));
      if (cannot) {
        await excluded(`not sent through Prism: ${cannot}`);
        continue;
      }

      seen = [];
      let outcome: Awaited<ReturnType<typeof runCase>>;
      try {
        outcome = await runCase(throughProxy, proxy, c, suite.ids ? idSubstitution(throughProxy, proxy) : undefined);
      } catch (error) {
        const alive = await fetch(`${proxy}/rest/ready`, { signal: AbortSignal.timeout(5_000) }).then(
          (r) => r.ok,
          () => false,
        );
        if (!alive) {
          verdict("failure", [
            `Prism stopped answering on this request (${(error as Error).message}); restarted. Its last lines:`,
            ...prism.output().split("\n").slice(-8),
          ]);
          await restartPrism();
        } else verdict("failure", [`request failed: ${(error as Error).message}`]);
        continue;
      }
      const last = seen.at(-1);
      const violations = last ? headerViolations(last.response) : [];
      const refusal = last ? prismError(last.response, await last.text) : undefined;
      for (const v of refusal?.violations ?? [])
        if (!violations.some((w) => w.side === v.side && w.message === v.message)) violations.push(v);
      const requestViolations = violations.filter((v) => v.side === "request");
      const details = violations
        .filter((v) => v.side !== "request")
        .map((v) => `${v.side} violation (${v.severity}): ${v.message}`);

      if (refusal && REQUEST_REFUSALS.has(refusal.type)) {
        const why = requestViolations.length > 0 ? requestViolations.map((v) => v.message).join("; ") : refusal.detail;
        await excluded(`Prism ${refusal.type}: ${why}`, details);
        continue;
      }
      if (refusal) details.push(`Prism ${refusal.type}: ${refusal.detail}`);
      else details.push(...outcome.problems);
      for (const v of requestViolations)
        details.push(`request violation (${v.severity}) on a forwarded request: ${v.message}`);
      verdict(details.length === 0 ? "ok" : "failure", details);
    }
  }

  const count = (kind: Verdict["kind"]) => verdicts.filter((v) => v.kind === kind).length;
  const expected = verdicts.filter((v) => v.kind === "expected");
  const failures = verdicts.filter((v) => v.kind === "failure");
  if (expected.length > 0) {
    console.log(`\nrequest violations on error cases (expected; the API's answer checked directly):`);
    for (const v of expected)
      console.log(`  ${v.case.status} ${v.case.code ?? ""} ${v.case.request}\n      ${v.details.join("\n      ")}`);
  }
  if (failures.length > 0) {
    console.log(`\nFAILURES:`);
    for (const v of failures)
      console.log(
        `  [${v.suite}] ${v.case.request} (worked: ${v.case.status} ${v.case.code ?? ""})\n      ${v.details.map((d) => d.replace(/\n/g, "\n        ")).join("\n      ")}`,
      );
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\ncontract: ran in ${seconds} s`);
  console.log(
    `contract: ${verdicts.length} cases, ${count("ok")} ok, ${count("expected")} request violations on error cases (expected), ${count("failure")} failures`,
  );
  return failures.length === 0 ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  if (!stopping) console.error(`contract: ${(error as Error).stack ?? error}`);
  code = 1;
} finally {
  await cleanUp();
  clearTimeout(watchdog);
}
process.exit(code);
