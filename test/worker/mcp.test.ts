// @module MCP at /mcp inside workerd, through the SDK's own client: the tools, their answers equal to the REST answers, errors, summarized graphs, keys.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_VERSION } from "../../src/http/openapi.ts";
import { MAX_TOOL_ANSWER_BYTES } from "../../src/mcp/rest-call.ts";
import type { Env } from "../../src/worker.ts";
import workerModule from "../../src/worker.ts";
import cornerV1 from "../fixtures/corner/corner-v1.json";
import cornerV2 from "../fixtures/corner/corner-v2.json";
import cornerRequests from "../fixtures/corner/requests.json";
import petstoreV1 from "../fixtures/examples/petstore-v1.json";
import petstoreV2 from "../fixtures/examples/petstore-v2.json";
import petstoreRequests from "../fixtures/examples/requests.json";
import { largeAnalysis } from "../support/large-analysis.ts";
import { idSubstitution, type RequestCase } from "../support/request-cases.ts";
import { toolCallFor } from "../support/rest-to-tool.ts";
import { appPath, BASE, call, fakeLimiter, fetchWorker, type Json, publishHistory, testEnv } from "./harness.ts";

const PET = "Pet Store & Co";
const CORNER = "A/B + ü&Co";
const OTHER = "Other / App";

// The tool names agents are told to use (README "MCP for AI agents"), in the order tools/list gives them.
const TOOLS = [
  "list_applications",
  "find_objects",
  "get_object",
  "list_callees",
  "get_start_end_points",
  "list_callers",
  "get_call_hierarchy",
  "find_paths",
  "list_transactions",
  "get_transaction_graph",
  "list_level_nodes",
  "get_level_graph",
  "list_changes",
  "read_source",
];

const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
const keyedEnv = { ...testEnv, API_KEYS: JSON.stringify({ "k-all": "*", "k-pet": [PET] }) } as Env;
const keyed = (request: Request) =>
  Promise.resolve(workerModule.fetch!(request as Request<unknown, IncomingRequestCfProperties>, keyedEnv, ctx));

type Fetcher = (request: Request) => Promise<Response>;

/** An SDK client connected to `path` (/mcp) through `fetcher`, sending `headers` with every request. */
async function connect(
  fetcher: Fetcher = fetchWorker,
  headers: Record<string, string> = {},
  path = "/mcp",
): Promise<Client> {
  // The SDK's default validator compiles schemas with `new Function`, which workerd forbids.
  const client = new Client(
    { name: "appstruct-test", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(BASE + path), {
      fetch: (url, init) => fetcher(new Request(url, init)),
      requestInit: { headers },
    }),
  );
  return client;
}

const callTool = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

/** The problem body a tool error carries as its text. */
function problemOf(result: CallToolResult): Json {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return JSON.parse((result.content[0] as { text: string }).text) as Json;
}

function structuredOf(result: CallToolResult): Record<string, unknown> {
  expect(result.isError ?? false, JSON.stringify(result.content).slice(0, 500)).toBe(false);
  // The same JSON as text after the summary, for hosts that pass only text to the model.
  expect(JSON.parse((result.content[1] as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent!;
}

let client: Client;

beforeAll(async () => {
  await publishHistory([petstoreV1, petstoreV2]);
  await publishHistory([cornerV1, cornerV2]);
  await publishHistory([{ ...petstoreV1, application: OTHER }]);
  client = await connect();
});
afterAll(() => client.close());

describe("the protocol", () => {
  it("initialize names the server and teaches the workflow", () => {
    expect(client.getServerVersion()).toEqual({ name: "appstruct", version: API_VERSION });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/list_applications.*find_objects.*get_object/s);
  });

  it("tools/list gives exactly the tools, at most 15, read-only, each with input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    expect(tools.length).toBeLessThanOrEqual(15);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
    }
    const find = tools.find((t) => t.name === "find_objects")!;
    expect(Object.keys(find.inputSchema.properties!).sort()).toEqual(
      [
        "annotation",
        "application",
        "date",
        "filepath",
        "fullname",
        "limit",
        "mangling",
        "name",
        "operator",
        "post_it",
        "searchtype",
        "skip",
        "tag",
        "type",
        "withSourceLocations",
      ].sort(),
    );
    expect(find.description).toMatch(/ids.*get_object/s);
  });

  it("is stateless: no session id, and GET or DELETE /mcp answer 405 with Allow: POST", async () => {
    const init = await fetchWorker(
      new Request(`${BASE}/mcp`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        }),
      }),
    );
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toBeNull();
    expect(((await init.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe(
      "appstruct",
    );
    for (const method of ["GET", "DELETE"]) {
      const r = await call("/mcp", { method });
      expect(r.status).toBe(405);
      expect(r.headers.get("allow")).toBe("POST");
      expect(r.body).toMatchObject({ code: "method_not_allowed" });
    }
  });

  /** POSTs `body` to /mcp as a client that negotiated `version` sends it. */
  const post = (version: string, body: unknown) =>
    call("/mcp", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "Mcp-Protocol-Version": version,
      },
      body: JSON.stringify(body),
    });
  const findCall = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "find_objects", arguments: { application: PET, name: "find", limit: 1 } },
  });

  it("refuses JSON-RPC batches from 2025-06-18 on, which removed them, with a JSON-RPC error", async () => {
    for (const version of ["2025-06-18", "2025-11-25"]) {
      const r = await post(version, [findCall(1), findCall(2)]);
      expect(r.status, version).toBe(400);
      expect(r.body).toEqual({
        jsonrpc: "2.0",
        error: {
          code: -32600,
          message: `Invalid Request: MCP ${version} has no JSON-RPC batches (removed in 2025-06-18); send each message in a POST of its own`,
        },
        id: null,
      });
    }
    // One message per POST is answered.
    const single = await post("2025-06-18", findCall(3));
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ jsonrpc: "2.0", id: 3, result: { structuredContent: { totalObjects: 4 } } });
  });

  it("answers a batch of at most four messages under 2025-03-26, which has batches, and refuses a larger one", async () => {
    const batch = await post("2025-03-26", [findCall(1), findCall(2)]);
    expect(batch.status).toBe(200);
    expect((batch.body as { id: number }[]).map((m) => m.id).sort()).toEqual([1, 2]);
    const large = await post("2025-03-26", [1, 2, 3, 4, 5].map(findCall));
    expect(large.status).toBe(400);
    expect(large.body).toMatchObject({
      error: {
        code: -32600,
        message:
          "Invalid Request: a batch of 5 messages; this server answers at most 4 per batch: send the others in further POSTs",
      },
    });
  });

  it("a browser preflight is allowed to POST with the protocol's headers", async () => {
    const r = await call("/mcp", {
      method: "OPTIONS",
      headers: {
        Origin: "https://inspector.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,mcp-protocol-version,x-api-key",
      },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-methods")).toContain("POST");
    expect(r.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("mcp-protocol-version");
  });
});

describe("list_applications", () => {
  it("lists every published application with its analyses, oldest first", async () => {
    expect(structuredOf(await callTool(client, "list_applications", {}))).toEqual({
      applications: [
        { name: CORNER, versions: [{ analyzedAt: cornerV1.analyzedAt }, { analyzedAt: cornerV2.analyzedAt }] },
        { name: OTHER, versions: [{ analyzedAt: petstoreV1.analyzedAt }] },
        { name: PET, versions: [{ analyzedAt: petstoreV1.analyzedAt }, { analyzedAt: petstoreV2.analyzedAt }] },
      ],
    });
  });

  it("answers exactly what GET /rest/applications answers", async () => {
    const rest = await call("/rest/applications");
    expect(rest.status).toBe(200);
    expect(structuredOf(await callTool(client, "list_applications", {}))).toEqual(rest.body);
  });

  it("refuses arguments it does not take", async () => {
    const result = await callTool(client, "list_applications", { application: PET });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/Input validation error.*application/s);
  });
});

describe("find_objects pages with nextSkip", () => {
  // Pet Store & Co v2 has 4 objects whose name contains "find" (requests.json: limit=5&name=find).
  it("a first page of 2 of 4: nextSkip 2, said in the summary too", async () => {
    const result = await callTool(client, "find_objects", { application: PET, name: "find", limit: 2 });
    expect((result.content[0] as { text: string }).text).toBe("4 objects match; objects 1–2; next page: skip=2.");
    const s = structuredOf(result);
    expect(s.totalObjects).toBe(4);
    expect(s.nextSkip).toBe(2);
    expect((s.objects as { id: string }[]).map((o) => o.id)).toEqual(["301", "302"]);
  });
  it("the last page: no nextSkip", async () => {
    const s = structuredOf(
      await callTool(client, "find_objects", { application: PET, name: "find", limit: 2, skip: 2 }),
    );
    expect((s.objects as unknown[]).length).toBe(2);
    expect(s).not.toHaveProperty("nextSkip");
  });
  it("limit 0 counts only: no nextSkip", async () => {
    expect(structuredOf(await callTool(client, "find_objects", { application: PET, name: "find", limit: 0 }))).toEqual({
      totalObjects: 4,
      objects: [],
    });
  });
  it("limit defaults to 50", async () => {
    const viaMcp = structuredOf(await callTool(client, "find_objects", { application: CORNER }));
    const viaRest = await call(`${appPath(CORNER)}/objects?limit=50`);
    expect(viaMcp).toEqual(viaRest.body);
  });
});

describe("what one tool call returns is bounded", () => {
  const LARGE = "Large & Co";
  let page: number;
  beforeAll(async () => {
    // 4000 objects of ~200-character full names in one level-5 node: its children are 1.2 MB of JSON.
    await publishHistory([largeAnalysis(LARGE, "2026-03-01T00:00:00Z", 4000)]);
    const graph = (await call(`${appPath(LARGE)}/levels/5/graph`)).body as {
      nodes: { _id: number; nbObjects: number }[];
    };
    page = graph.nodes.reduce((a, b) => (b.nbObjects > a.nbObjects ? b : a))._id;
  });

  it("find_objects takes a limit of at most 1000 and says to page with skip", async () => {
    expect(problemOf(await callTool(client, "find_objects", { application: LARGE, limit: 1001 }))).toEqual({
      status: 400,
      title: "Invalid parameter",
      code: "invalid_parameter",
      detail:
        "limit is 1001; one call returns at most 1000 objects: page with skip, passing the nextSkip of each answer",
      parameter: "limit",
    });
    const full = structuredOf(await callTool(client, "find_objects", { application: LARGE, limit: 1000 }));
    expect((full.objects as unknown[]).length).toBe(1000);
    expect(full.nextSkip).toBe(1000);
  });

  it("an answer past 1 MiB is a tool error saying how to narrow it; REST still answers it whole", async () => {
    const rest = await call(`${appPath(LARGE)}/levels/5/nodes?_id=${page}&select=children`);
    expect(rest.status).toBe(200);
    expect(rest.text.length).toBeGreaterThan(MAX_TOOL_ANSWER_BYTES);
    expect(problemOf(await callTool(client, "list_level_nodes", { application: LARGE, level: 5, _id: page }))).toEqual({
      status: 400,
      title: "Invalid parameter",
      code: "invalid_parameter",
      detail: `the answer is larger than ${MAX_TOOL_ANSWER_BYTES} bytes of JSON, the most one tool call returns; give _id for one node, or a longer name matching fewer nodes; a node with this many children is listed whole only by GET ${appPath(LARGE)}/levels/5/nodes?_id=…&select=children over HTTP`,
      parameter: "_id",
    });
  });
});

describe("get_level_graph summarizes large graphs", () => {
  const JAVA_CLASS = {
    name: "Java Class",
    fullName: "Services##Logic Services##Business Logic##Java##Java Class",
    nbObjects: 2,
  };
  const JAVA_METHOD = {
    name: "Java Method",
    fullName: "Services##Logic Services##Business Logic##Java##Java Method",
    nbObjects: 6,
  };
  const JSP_PAGE = {
    name: "JSP Page",
    fullName: "Services##User Interaction Services##Web Pages##JSP##JSP Page",
    nbObjects: 2,
  };
  /** Nodes without their volatile _id, links as "origin -> target", and the note checked on its own. */
  const strip = (s: Record<string, unknown>) => {
    const { note, ...omitted } = s.omitted as { note: string };
    expect(note).toMatch(/Left out: .*full: true/);
    return {
      nodes: (s.nodes as { _id: number }[]).map(({ _id, ...n }) => n),
      links: (s.links as { origin: { name: string }; target: { name: string } }[]).map(
        (l) => `${l.origin.name} -> ${l.target.name}`,
      ),
      omitted,
    };
  };

  // Level 5 of Pet Store & Co (requests.json): 5 nodes of 2, 1, 6, 2 and 2 objects, 4 links. The ties at 2
  // objects go in the graph's name order: Java Class, JSP Page, PostgreSQL Table.
  it("maxNodes 2: the 6-object node and the first 2-object node, their one link, and what was left out", async () => {
    expect(
      strip(structuredOf(await callTool(client, "get_level_graph", { application: PET, level: 5, maxNodes: 2 }))),
    ).toEqual({
      nodes: [JAVA_CLASS, JAVA_METHOD],
      links: ["Java Method -> Java Class"],
      omitted: { nodes: 3, links: 3, nbObjects: 5 },
    });
  });

  it("maxNodes 3 adds JSP Page and its link", async () => {
    expect(
      strip(structuredOf(await callTool(client, "get_level_graph", { application: PET, level: 5, maxNodes: 3 }))),
    ).toEqual({
      nodes: [JAVA_CLASS, JAVA_METHOD, JSP_PAGE],
      links: ["Java Method -> Java Class", "JSP Page -> Java Method"],
      omitted: { nodes: 2, links: 2, nbObjects: 3 },
    });
  });

  it("within the default bound, or with full: true, the REST graph itself", async () => {
    const rest = (await call(`${appPath(PET)}/levels/5/graph`)).body;
    expect(structuredOf(await callTool(client, "get_level_graph", { application: PET, level: 5 }))).toEqual(rest);
    expect(
      structuredOf(await callTool(client, "get_level_graph", { application: PET, level: 5, maxNodes: 1, full: true })),
    ).toEqual(rest);
  });
});

describe("an error per tool: the REST problem, code and detail included", () => {
  const CASES: [string, Record<string, unknown>, string][] = [
    ["find_objects", { application: "Nobody", limit: 1 }, "/rest/applications/Nobody/objects?limit=1"],
    ["find_objects", { application: PET, limit: -1 }, `${appPath(PET)}/objects?limit=-1`],
    ["get_object", { application: PET, id: "999" }, `${appPath(PET)}/objects/999`],
    ["list_callees", { application: CORNER, id: "207" }, `${appPath(CORNER)}/objects/207/callees`],
    [
      "get_start_end_points",
      { application: PET, id: "201", hops: 33 },
      `${appPath(PET)}/objects/201/start-end-points?hops=33`,
    ],
    ["list_level_nodes", { application: PET, level: 2 }, `${appPath(PET)}/levels/2/nodes?select=children`],
    [
      "list_level_nodes",
      { application: PET, level: 1, name: "s" },
      `${appPath(PET)}/levels/1/nodes?name=s&select=children`,
    ],
    ["get_level_graph", { application: PET, level: 6 }, `${appPath(PET)}/levels/6/graph`],
    ["get_level_graph", { application: "A`B", level: 1 }, "/rest/applications/A%60B/levels/1/graph"],
    [
      "list_changes",
      { application: PET, to: "2026-09-30T00:00:00Z" },
      `${appPath(PET)}/changes?to=2026-09-30T00:00:00Z&limit=50`,
    ],
    ["list_changes", { application: PET, from: "yesterday" }, `${appPath(PET)}/changes?from=yesterday&limit=50`],
    ["read_source", { application: PET, fileId: "2" }, `${appPath(PET)}/files/2`],
    [
      "read_source",
      { application: PET, fileId: "-4", startLine: 5, endLine: 4 },
      `${appPath(PET)}/files/-4?startLine=5&endLine=4`,
    ],
    [
      "read_source",
      { application: PET, fileId: "-4", date: "2026-01-01T00:00:00Z" },
      `${appPath(PET)}/files/-4?date=2026-01-01T00:00:00Z`,
    ],
  ];
  for (const [tool, args, restPath] of CASES)
    it(`${tool} ${JSON.stringify(args)} = GET ${restPath}`, async () => {
      const rest = await call(restPath);
      expect(rest.status).toBeGreaterThanOrEqual(400);
      expect(problemOf(await callTool(client, tool, args))).toEqual(rest.body);
    });
});

describe("tools name an object by id, exact full name or unique exact name", () => {
  const structured = async (tool: string, args: Record<string, unknown>) =>
    structuredOf(await callTool(client, tool, args));

  it("get_object by full name and by name equals the REST answer by id", async () => {
    const rest = await call(`${appPath(PET)}/objects/301`);
    expect(await structured("get_object", { application: PET, name: "org.pets.OwnerRepository.findById" })).toEqual(
      rest.body,
    );
    expect(await structured("get_object", { application: PET, name: "findById" })).toEqual(rest.body);
  });

  it("a name is matched exactly, case included: run, Run and RUN are three objects", async () => {
    for (const [name, id] of [
      ["run", "200"],
      ["Run", "201"],
      ["core.RUN", "202"],
    ])
      expect((await structured("get_object", { application: CORNER, name })).id).toBe(id);
  });

  it("list_callers, get_call_hierarchy and get_transaction_graph by name equal REST by id", async () => {
    const callers = await call(`${appPath(PET)}/objects/302/callers?includeEscalated=true`);
    expect(
      (await structured("list_callers", { application: PET, name: "findByLastName", includeEscalated: true })).callers,
    ).toEqual(callers.body);
    const hierarchy = await call(`${appPath(CORNER)}/objects/7/call-hierarchy?direction=both&hops=2`);
    expect(
      await structured("get_call_hierarchy", { application: CORNER, name: "core.dup", direction: "both", hops: 2 }),
    ).toEqual(hierarchy.body);
    const graph = await call(`${appPath(PET)}/data-graphs/400/graph`);
    expect(
      await structured("get_transaction_graph", {
        application: PET,
        kind: "data-graphs",
        name: "petclinic.public.owners",
      }),
    ).toEqual(graph.body);
  });

  it("find_paths names both ends by name", async () => {
    const rest = await call(`${appPath(PET)}/objects/101/paths?to=400`);
    expect(
      await structured("find_paths", { application: PET, name: "findOwners.jsp", toName: "petclinic.public.owners" }),
    ).toEqual(rest.body);
  });

  it("a name several objects have is ambiguous_object, listing them", async () => {
    const problem = problemOf(await callTool(client, "list_callers", { application: CORNER, name: "dup" }));
    expect(problem).toMatchObject({ code: "ambiguous_object", parameter: "name" });
    expect(
      (problem as { candidates: { id: string; fullName: string }[] }).candidates.map((c) => c.fullName).sort(),
    ).toEqual(["core.dup", "legacy.dup", "zz.dup"]);
    const to = problemOf(await callTool(client, "find_paths", { application: CORNER, id: "100", toName: "dup" }));
    expect(to).toMatchObject({ code: "ambiguous_object", parameter: "toName" });
  });

  it("no such name, or neither or both of id and name: a tool error saying so", async () => {
    expect(problemOf(await callTool(client, "get_object", { application: PET, name: "nothing" }))).toMatchObject({
      code: "object_not_found",
      parameter: "name",
    });
    expect(problemOf(await callTool(client, "list_callees", { application: PET }))).toMatchObject({
      code: "invalid_parameter",
      parameter: "id",
    });
    expect(
      problemOf(await callTool(client, "get_object", { application: PET, id: "301", name: "findById" })),
    ).toMatchObject({ code: "invalid_parameter" });
  });
});

describe("API keys", () => {
  it("no key or a wrong key: 401 on /mcp itself, and the SDK client cannot connect", async () => {
    for (const headers of [{}, { "X-API-KEY": "k-nope" }, { Authorization: "Bearer k-nope" }] as Record<
      string,
      string
    >[]) {
      const r = await call(
        "/mcp",
        {
          method: "POST",
          headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
          body: "{}",
        },
        keyed,
      );
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ code: "unauthorized" });
      await expect(connect(keyed, headers)).rejects.toThrow();
    }
  });

  it("a key for every application, in X-API-KEY, as a Bearer token or in the api-key parameter: the open answers", async () => {
    const open = await callTool(client, "find_objects", { application: OTHER, name: "find", limit: 3 });
    const ways: [Record<string, string>, string][] = [
      [{ "X-API-KEY": "k-all" }, "/mcp"],
      [{ Authorization: "Bearer k-all" }, "/mcp"],
      // For clients that cannot send headers.
      [{}, "/mcp?api-key=k-all"],
    ];
    for (const [headers, path] of ways) {
      const c = await connect(keyed, headers, path);
      expect((await callTool(c, "list_applications", {})).structuredContent).toEqual(
        (await callTool(client, "list_applications", {})).structuredContent,
      );
      expect(await callTool(c, "find_objects", { application: OTHER, name: "find", limit: 3 })).toEqual(open);
      await c.close();
    }
  });

  it("a key limited to Pet Store & Co lists only it and gets the REST 403 on the others", async () => {
    const c = await connect(keyed, { "X-API-KEY": "k-pet" });
    expect(structuredOf(await callTool(c, "list_applications", {}))).toEqual({
      applications: [
        { name: PET, versions: [{ analyzedAt: petstoreV1.analyzedAt }, { analyzedAt: petstoreV2.analyzedAt }] },
      ],
    });
    expect(structuredOf(await callTool(c, "get_object", { application: PET, id: "302" }))).toEqual(
      (await call(`${appPath(PET)}/objects/302`)).body,
    );
    const forbidden = await call(`${appPath(OTHER)}/objects/302`, { headers: { "X-API-KEY": "k-pet" } }, keyed);
    expect(forbidden.status).toBe(403);
    expect(problemOf(await callTool(c, "get_object", { application: OTHER, id: "302" }))).toEqual(forbidden.body);
    await c.close();
  });
});

describe("rate limit (optional RATE_LIMITER binding)", () => {
  it("each tool call counts as the REST request it makes, per client address; past the allowance, the REST 429", async () => {
    const limiter = fakeLimiter(2);
    const env = { ...testEnv, RATE_LIMITER: limiter, RATE_LIMIT_PERIOD: "60" } as Env;
    const limited = (request: Request) =>
      Promise.resolve(workerModule.fetch!(request as Request<unknown, IncomingRequestCfProperties>, env, ctx));
    const c = await connect(limited, { "CF-Connecting-IP": "203.0.113.9" });
    const args = { application: PET, id: "302" };
    const open = await callTool(client, "get_object", args);
    expect(await callTool(c, "get_object", args)).toEqual(open);
    expect(await callTool(c, "get_object", args)).toEqual(open);
    expect(problemOf(await callTool(c, "get_object", args))).toEqual({
      status: 429,
      title: "Too many requests",
      code: "rate_limited",
      detail: "too many requests from this API key or client; try again in at most 60 s",
    });
    expect(limiter.keys).toEqual(["address:203.0.113.9", "address:203.0.113.9", "address:203.0.113.9"]);
    await c.close();
  });
});

/** Every worked request the tools can express, through MCP and straight to REST: the same answer. */
function sameAsRest(label: string, cases: readonly RequestCase[], substitute: (path: string) => Promise<string>) {
  describe(label, () => {
    const calls = cases
      .filter((c) => c.request.startsWith("GET "))
      .map((c) => ({ path: c.request.slice(4), call: toolCallFor(c.request.slice(4)) }));
    const expressed = calls.filter((c) => c.call !== null && !c.path.includes("{_id of"));
    const withIds = calls.filter((c) => c.path.includes("{_id of"));
    it("expresses most cases, for every tool, with answers and errors", () => {
      expect(expressed.length + withIds.length).toBeGreaterThan(calls.length * 0.6);
      expect(new Set(expressed.map((c) => c.call!.name))).toEqual(new Set(TOOLS.slice(1)));
    });
    for (const { path } of [...expressed, ...withIds])
      it(path, async () => {
        const resolved = await substitute(path);
        const toolCall = toolCallFor(resolved)!;
        expect(toolCall).not.toBeNull();
        const rest = await call(resolved);
        const result = await callTool(client, toolCall.name, toolCall.arguments);
        if (rest.status !== 200) expect(problemOf(result)).toEqual(rest.body);
        else expect(toolCall.unwrap(structuredOf(result))).toEqual(rest.body);
      });
  });
}

sameAsRest("test/fixtures/examples/requests.json through MCP", petstoreRequests as RequestCase[], async (p) => p);
sameAsRest(
  "test/fixtures/corner/requests.json through MCP",
  cornerRequests as RequestCase[],
  idSubstitution(fetchWorker, BASE),
);
