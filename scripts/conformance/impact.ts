// @module `npm run conformance -- <analyses…>`: serves the analyses with `appstruct serve` and checks the impact routes against the plain evaluator.
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { PROJECT_ROOT } from "../../build/store.ts";
import { startChildServer } from "../bench/child-server.ts";
import { freePort } from "../dev-server.ts";
import { checkImpact } from "./check.ts";
import { type Analysis, readAnalysis } from "./impact-reference.ts";

const files = process.argv.slice(2).filter((a) => a !== "--");
if (files.length === 0) {
  console.error("usage: npm run conformance -- <analysis.json|.ndjson …> (versions of one or more applications)");
  process.exit(2);
}

const byApplication = new Map<string, Analysis[]>();
for (const file of files) {
  const analysis = readAnalysis(file);
  byApplication.set(analysis.application, [...(byApplication.get(analysis.application) ?? []), analysis]);
}

const folder = await mkdtemp(join(tmpdir(), "appstruct-conformance-"));
for (const [i, file] of files.entries()) await symlink(resolve(file), join(folder, `${i}-${basename(file)}`));
const port = await freePort();
const server = await startChildServer(
  "appstruct serve",
  join(PROJECT_ROOT, "build", "bin", "appstruct.js"),
  ["serve", "--data", folder, "--port", String(port)],
  port,
  "appstruct serving",
);
/** An answer as printed: a whole graph is too long to read, so its head. */
const shown = (answer: unknown) => {
  const json = JSON.stringify(answer);
  return json.length > 1500 ? `${json.slice(0, 1500)}… (${json.length} characters)` : json;
};
let requests = 0;
let differ = 0;
try {
  for (const [application, versions] of byApplication) {
    versions.sort((x, y) => Date.parse(x.analyzedAt) - Date.parse(y.analyzedAt));
    const result = await checkImpact(
      async (path) => {
        const response = await fetch(server.url + path);
        return { status: response.status, body: await response.json() };
      },
      application,
      versions,
      { objectsPerVersion: 60 },
    );
    requests += result.requests;
    differ += result.differences.length;
    for (const d of result.differences)
      console.log(`${application} ${d.request}\n  expected ${shown(d.expected)}\n  got      ${shown(d.got)}`);
  }
} finally {
  await server.stop();
  await rm(folder, { recursive: true, force: true });
}
console.log(`${requests} requests, ${differ} differ`);
process.exit(differ === 0 ? 0 : 1);
