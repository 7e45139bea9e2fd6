// @module explorerFiles: the explorer's built files (web/dist) answered on Node as Workers static assets answers them in the worker, with the headers of their _headers file.
import { readdir, readFile } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import { rawPath } from "../src/http/request-target.ts";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/** Files that are instructions to the asset server, not content: Workers does not serve them either. */
const NOT_SERVED = new Set(["/_headers", "/_redirects"]);

/**
 * The header rules of a Cloudflare `_headers` file: a path pattern (`/*` or an exact path) on its
 * own line, then indented `Name: value` lines. Only what the explorer's file uses is understood.
 */
export function parseHeaderRules(text: string): { pattern: string; headers: [string, string][] }[] {
  const rules: { pattern: string; headers: [string, string][] }[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim() || line.trimStart().startsWith("#")) continue;
    if (!/^\s/.test(line)) rules.push({ pattern: line.trim(), headers: [] });
    else {
      const colon = line.indexOf(":");
      if (colon > 0 && rules.length)
        rules[rules.length - 1].headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
    }
  }
  return rules;
}

const matches = (pattern: string, path: string) =>
  pattern.endsWith("*") ? path.startsWith(pattern.slice(0, -1)) : pattern === path;

/**
 * A handler answering GET and HEAD of a file under `folder` (`/` is index.html), or null to let the
 * API answer: paths without a file, and every path the API owns, fall through to it. Null when the
 * explorer is not built (no index.html). The folder's files are listed once, here: looking for a
 * file on disk at every request cost each API answer a failed open. A rebuilt explorer is served
 * after a restart, as a redeployed worker's assets are.
 */
export async function explorerFiles(folder: string): Promise<((request: Request) => Promise<Response | null>) | null> {
  let rules: ReturnType<typeof parseHeaderRules> = [];
  try {
    await readFile(join(folder, "index.html"));
  } catch {
    return null;
  }
  try {
    rules = parseHeaderRules(await readFile(join(folder, "_headers"), "utf8"));
  } catch {
    // No _headers: files go out with their content type only.
  }
  // By URL path ("/assets/x.js"): a request names a file exactly or not at all, so a lookup is
  // the whole check (no path leaves the folder) and costs an API request no path arithmetic.
  const files = new Map(
    (await readdir(folder, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const file = join(entry.parentPath, entry.name);
        return [`/${relative(folder, file).split(sep).join("/")}` as string, file] as const;
      }),
  );
  files.set("/", join(folder, "index.html"));
  for (const path of NOT_SERVED) files.delete(path);
  return async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") return null;
    const path = filePath(request);
    const file = path === null ? undefined : files.get(path);
    if (path === null || file === undefined) return null;
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return null;
    }
    const headers = new Headers({ "Content-Type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream" });
    for (const rule of rules)
      if (matches(rule.pattern, path)) for (const [name, value] of rule.headers) headers.set(name, value);
    return new Response(request.method === "HEAD" ? null : new Uint8Array(body), { headers });
  };
}

/**
 * The decoded path of `request`, or null when it is not UTF-8 once decoded (no file has that name,
 * and the API says what is wrong). The path is read from the string as sent; only one with dot
 * segments or backslashes is parsed as a URL, which resolves them as a browser does.
 */
function filePath(request: Request): string | null {
  let path = rawPath(request);
  if (/\\|\/(\.|%2e)/i.test(path)) path = new URL(request.url).pathname;
  if (!path.includes("%")) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}
