// @module createApp: the composition root — REST routes, MCP, the publish API and the one error path — over whatever catalog and storage it is given.
import { Hono } from "hono";
import { cors } from "hono/cors";
import { ApiError } from "./contract/errors.ts";
import { honoPath, ROUTE_SPECS } from "./contract/route-specs.ts";
import { currentStorageMeter, StorageMeter } from "./format/storage-meter.ts";
import { authorize } from "./http/access.ts";
import { admit } from "./http/admission.ts";
import { decodeApplicationName } from "./http/application.ts";
import { conditionalGet, EXPOSED_HEADERS } from "./http/caching.ts";
import type { AppDeps, AppEnv } from "./http/context.ts";
import { problemResponse, toApiError } from "./http/problem.ts";
import { rawPath } from "./http/request-target.ts";
import { applicationRoutes } from "./http/routes/applications.ts";
import { changesRoutes } from "./http/routes/changes.ts";
import { fileRoutes } from "./http/routes/files.ts";
import { flowRoutes } from "./http/routes/flows.ts";
import { levelRoutes } from "./http/routes/levels.ts";
import { META_PATHS, metaRoutes } from "./http/routes/meta.ts";
import { objectRoutes } from "./http/routes/objects.ts";
import { serverTiming } from "./http/server-timing.ts";
import { mcpCors, mcpRoutes } from "./mcp/route.ts";
import { publishApi } from "./publish/routes.ts";

// Every route of the specs, so that a route added there answers 405 to other methods too.
const ROUTES = [...ROUTE_SPECS.map(honoPath), ...META_PATHS];

/** Longest request URL served (8 KiB), whatever its parameters. */
const MAX_URL_LENGTH = 8192;

/** A response built outside the context (an error) misses the headers set on it: browsers must still be able to read the error, and not sniff it. */
function readableCrossOrigin(response: Response): Response {
  response.headers.set("Access-Control-Allow-Origin", "*");
  response.headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  response.headers.set("X-Content-Type-Options", "nosniff");
  return response;
}

/** The status of an answer to a request whose client went away before it was ready (nginx's "client closed request"). */
const CLIENT_CLOSED = 499;

/** The one way out for an error: its problem JSON, logged when it is ours (internal_error). */
function errorResponse(error: unknown, request: Request): Response {
  // Work stopped because the client went away (a walk's turns check the request's signal): nobody
  // reads this answer, and nothing failed. 499, as proxies log a request its client closed.
  if (request.signal.aborted) return new Response(null, { status: CLIENT_CLOSED });
  const apiError = toApiError(error);
  if (apiError.code === "internal_error") console.error("internal error", request.method, rawPath(request), error);
  // The answer's detail stays general; what storage said (and how often it was asked) is for the operator.
  else if (apiError.code === "storage_unavailable")
    console.error("storage unavailable", request.method, rawPath(request), (error as Error).message);
  return readableCrossOrigin(problemResponse(apiError));
}

export function createApp(resolveDeps: (env: unknown) => AppDeps | Promise<AppDeps>): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ getPath: rawPath });
  mcpCors(app);

  const preflight = cors({
    origin: "*",
    allowMethods: ["GET", "HEAD", "OPTIONS"],
    allowHeaders: ["X-API-KEY", "Authorization", "If-None-Match"],
    exposeHeaders: EXPOSED_HEADERS.split(", "),
    maxAge: 86400,
  });
  app.use("*", async (c, next) => {
    if (c.req.method === "OPTIONS") return preflight(c, next);
    // What hono/cors sets on a simple request, set before the answer is built: set afterwards (as
    // hono/cors does), the headers make Node's adapter build a full Response: ~0.15 ms a request.
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Access-Control-Expose-Headers", EXPOSED_HEADERS);
    c.header("X-Content-Type-Options", "nosniff");
    // A request made inside another (an MCP tool's REST call) reports to its caller's meter too.
    const meter = new StorageMeter(currentStorageMeter());
    await meter.measure(next);
    // Set on the response as built, error answers included: c.header() now would rebuild it. It
    // counts what was read before the headers leave: reads of a body streamed after them are not in it.
    c.res.headers.set("Server-Timing", serverTiming(meter));
  });
  app.use("*", async (c, next) => {
    if (c.req.url.length > MAX_URL_LENGTH)
      throw new ApiError(
        "invalid_parameter",
        `the request URL is ${c.req.url.length} characters long; at most ${MAX_URL_LENGTH} are accepted`,
      );
    c.set("deps", await resolveDeps(c.env));
    await next();
  });

  app.get("/rest/ready", (c) => c.json(true));
  metaRoutes(app);
  applicationRoutes(app);

  app.use("/rest/applications/:name/*", async (c, next) => {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return next();
    const scope = await admit(c);
    const application = decodeApplicationName(rawPath(c.req.raw).split("/")[3]);
    authorize(scope, application);
    c.set("application", application);
    await next();
  });

  mcpRoutes(app);
  app.use("/rest/applications/:name/*", conditionalGet);
  objectRoutes(app);
  flowRoutes(app);
  levelRoutes(app);
  changesRoutes(app);
  fileRoutes(app);

  for (const route of ROUTES)
    app.all(route, (c) => {
      throw new ApiError(
        "method_not_allowed",
        `${c.req.method} is not allowed here; this API is read-only: use GET or HEAD`,
        { headers: { Allow: "GET, HEAD" } },
      );
    });

  // The publish API (own token, own routes); the /rest API above stays read-only.
  app.route("/publish", publishApi);
  app.all("/publish/*", () => {
    throw new ApiError(
      "route_not_found",
      "no such publish route; the publish API is /publish/uploads, /publish/snapshots/{sha256} and /publish/applications (docs/publish-api.md)",
    );
  });

  app.notFound(() =>
    readableCrossOrigin(
      problemResponse(new ApiError("route_not_found", "no such route; routes start with /rest/applications/{name}/")),
    ),
  );
  app.onError((error, c) => errorResponse(error, c.req.raw));
  // What escapes Hono's own handling (a failure while a response is put together, a runtime error
  // thrown outside a handler) leaves through the same path: problem JSON, readable cross-origin.
  const dispatch = app.fetch;
  app.fetch = async (request, env, executionCtx) => {
    try {
      return await dispatch(request, env, executionCtx);
    } catch (error) {
      return errorResponse(error, request);
    }
  };
  return app;
}
