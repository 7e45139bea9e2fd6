// @module Zod schemas of every response body (the answer tables of docs/api.md, and docs/api.md#errors): the single source of their TS types and of the OpenAPI document.
import { z } from "zod";
import { STATUSES, type Status } from "../format/model.ts";
import { ERROR_TITLES, type ErrorCode, type ProblemBody } from "./errors.ts";

/** A permanent object id as the API writes it: a string of 1 to 19 decimal digits. */
const objectId = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,18})$/)
  .meta({ description: "Permanent object ID: a string of 1 to 19 decimal digits." });
/** A volatile node id: local to one level graph of one published analysis (docs/api.md#volatile-_id). */
const volatileId = z
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .meta({ description: "Volatile local ID of a node, valid only within the level graph of one published analysis." });
const line = z.number().int().min(1).max(0xffffffff);

export const SourceLocationSchema = z
  .object({
    fileId: z
      .string()
      .regex(/^-?[0-9]{1,19}$/)
      .meta({ description: "Source file ID: a string of a possibly negative integer." }),
    startLine: line.meta({ description: "First line of the object in the file, 1-based." }),
    endLine: line.meta({ description: "Last line of the object in the file, 1-based." }),
  })
  .strict();

const sourceLocations = z.array(SourceLocationSchema).min(1).optional().meta({
  description:
    "Present only with select=source-locations and when the source code service has locations for the object (never an empty array).",
});

export const ObjectSchema = z
  .object({
    id: objectId,
    name: z.string(),
    fullName: z.string().meta({ description: "Long name; usually locates the object in a software architecture." }),
    type: z.string().meta({ description: "Object type for display." }),
    typeId: z.string().meta({ description: "Object type identifier, the type reference key." }),
    filePath: z.string().nullable().meta({
      description: "Analyzed source file path (the first one when there are several); null when not applicable.",
    }),
    mangling: z.string().meta({ description: "Function signature, or an empty string when not applicable." }),
    external: z.boolean().meta({ description: "true: the object is outside the application boundary." }),
    annotations: z
      .array(z.string())
      .nullable()
      .meta({ description: "Annotations of the object; null when not applicable." }),
    tags: z.array(z.string()).meta({ description: "Tags of the object; empty when there are none." }),
    sourceLocations,
  })
  .strict();

export const FindObjectsResultSchema = z
  .object({
    totalObjects: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Count of all objects matching the filters, independent of limit and skip." }),
    objects: z
      .array(ObjectSchema)
      .meta({ description: "The slice [skip, skip+limit) of the matches, sorted by name." }),
  })
  .strict();

export const CharacteristicsSchema = z
  .object({
    id: objectId,
    name: z.string(),
    fullName: z.string(),
    mangling: z.string(),
    type: z.string(),
    typeId: z.string(),
    annotations: z.array(z.string()).nullable(),
    status: z
      .object({ id: z.enum(STATUSES as readonly [Status, ...Status[]]).nullable() })
      .strict()
      .meta({
        description:
          "Status relative to the previous analysis; id is null when the object or its previous version has no checksum.",
      }),
    external: z.boolean(),
    programmingLanguage: z
      .object({ name: z.string().nullable() })
      .strict()
      .meta({ description: "Programming language of the object; name is null when unknown." }),
    parent: z
      .object({ id: objectId, name: z.string(), type: z.string(), typeId: z.string() })
      .strict()
      .nullable()
      .meta({ description: "The composite parent object; null for an object without parent." }),
    sourceLocations,
  })
  .strict();

export const CalleeSchema = z
  .object({
    id: objectId,
    name: z.string(),
    type: z.string(),
    typeId: z.string(),
    linkType: z.string().meta({ description: "Link type identifier describing the call between caller and callee." }),
    parent: z.object({ type: z.string(), typeId: z.string() }).strict().nullable().optional().meta({
      description: "Only with select=parent: the parent's type and type key, or null for a callee without parent.",
    }),
    sourceLocations,
  })
  .strict();

export const CalleeListSchema = z.array(CalleeSchema);

export const CallerSchema = CalleeSchema.extend({
  linkType: z.string().meta({ description: "Link type identifier describing the call between caller and object." }),
  parent: z.object({ type: z.string(), typeId: z.string() }).strict().nullable().optional().meta({
    description: "Only with select=parent: the parent's type and type key, or null for a caller without parent.",
  }),
}).strict();

export const CallerListSchema = z.array(CallerSchema);

/** An object as the impact routes list it. */
export const ObjectRefSchema = z
  .object({ id: objectId, name: z.string(), fullName: z.string(), type: z.string(), typeId: z.string() })
  .strict();

const depth = z.number().int().min(0).meta({ description: "Smallest number of links from the origin object." });

export const GraphLinkSchema = z
  .object({ from: objectId, to: objectId, linkType: z.string() })
  .strict()
  .meta({ description: "A link that is not escalated, from the object `from` to the object `to`." });

const graphFields = {
  totalNodes: z.number().int().min(0).meta({ description: "Every node before the cut to limit." }),
  truncated: z
    .boolean()
    .meta({ description: "True when nodes were cut to limit, or the walk met the traversal budget." }),
  links: z
    .array(GraphLinkSchema)
    .meta({ description: "Links between listed nodes, sorted by from, then to (numeric id order), then linkType." }),
};

export const CallHierarchySchema = z
  .object({
    totalNodes: graphFields.totalNodes,
    truncated: graphFields.truncated,
    nodes: z
      .array(ObjectRefSchema.extend({ depth }).strict())
      .meta({ description: "Objects within hops links, sorted by depth, then by name." }),
    links: graphFields.links,
  })
  .strict();

export const PathStepSchema = ObjectRefSchema.extend({
  linkTypes: z.array(z.string()).meta({
    description: "Sorted link types (not escalated) from the previous step's object to this one; empty for the first.",
  }),
}).strict();

export const PathsSchema = z
  .object({
    length: z.number().int().min(0).nullable().meta({ description: "Links in a shortest path; null when none." }),
    totalPaths: z
      .number()
      .int()
      .min(0)
      .max(100000)
      .meta({ description: "Number of shortest paths, capped at 100000." }),
    paths: z.array(z.array(PathStepSchema)).meta({ description: "The first limit shortest paths, in name order." }),
  })
  .strict();

export const TransactionListSchema = z
  .object({
    totalTransactions: z.number().int().min(0),
    transactions: z.array(ObjectRefSchema).meta({ description: "Start points, sorted by name." }),
  })
  .strict();

export const DataGraphListSchema = z
  .object({
    totalDataGraphs: z.number().int().min(0),
    dataGraphs: z.array(ObjectRefSchema).meta({ description: "End points, sorted by name." }),
  })
  .strict();

export const FlowGraphSchema = z
  .object({
    totalNodes: graphFields.totalNodes,
    truncated: graphFields.truncated,
    nodes: z
      .array(
        ObjectRefSchema.extend({
          depth,
          role: z.enum(["start", "end"]).nullable().meta({ description: "The object's role, or null." }),
        }).strict(),
      )
      .meta({ description: "Objects reached, sorted by depth, then by name." }),
    links: graphFields.links,
  })
  .strict();

export const PointSchema = z
  .object({ id: objectId, name: z.string(), fullName: z.string(), type: z.string() })
  .strict();

export const PointsResultSchema = z
  .object({
    startPoints: z
      .array(PointSchema)
      .meta({ description: "Start points from which the object is reached within hops links, sorted by name." }),
    endPoints: z
      .array(PointSchema)
      .meta({ description: "End points reached from the object within hops links, sorted by name." }),
  })
  .strict();

export const LevelChildSchema = z
  .object({ _id: volatileId, name: z.string(), level: z.number().int().min(3).max(5) })
  .strict();

export const LevelObjectSchema = z
  .object({ id: objectId, name: z.string(), fullName: z.string(), type: z.string(), typeId: z.string() })
  .strict();

export const LevelNodeSchema = z
  .object({
    _id: volatileId,
    name: z.string(),
    fullName: z.string(),
    level: z.number().int().min(2).max(4),
    children: z.array(LevelChildSchema).meta({ description: "Nodes of the next level, sorted by name." }),
  })
  .strict()
  .meta({ description: "A node of level 2 to 4 with its children of the next level." });

export const Level5NodeSchema = z
  .object({
    _id: volatileId,
    name: z.string(),
    fullName: z.string(),
    level: z.literal(5),
    children: z.array(LevelObjectSchema).meta({ description: "Objects (permanent IDs) of the node, sorted by name." }),
  })
  .strict()
  .meta({ description: "A node of level 5 with its objects." });

export const LevelNodeListSchema = z.array(z.union([LevelNodeSchema, Level5NodeSchema]));

export const NodeRefSchema = z.object({ _id: volatileId, name: z.string(), fullName: z.string() }).strict();

export const LevelGraphSchema = z
  .object({
    nodes: z.array(
      z
        .object({
          _id: volatileId,
          name: z.string(),
          fullName: z.string(),
          nbObjects: z.number().int().min(0).meta({ description: "Number of objects under the node." }),
        })
        .strict(),
    ),
    links: z.array(z.object({ origin: NodeRefSchema, target: NodeRefSchema }).strict()),
  })
  .strict();

export const ReadySchema = z.literal(true);

const ERROR_CODES = Object.keys(ERROR_TITLES) as [ErrorCode, ...ErrorCode[]];

export const ProblemSchema = z
  .object({
    status: z.number().int().min(400).max(599).meta({ description: "The HTTP status of the response." }),
    title: z.string().meta({ description: "A short summary of the code." }),
    code: z.enum(ERROR_CODES).meta({ description: "Machine-readable error code (docs/api.md#error-codes)." }),
    detail: z.string().meta({ description: "A sentence a person can act on." }),
    parameter: z.string().optional().meta({ description: "The parameter at fault, when there is one." }),
  })
  .strict()
  .meta({ description: "Error body shaped after RFC 9457." });

// Changes between two analyses (GET …/changes).
export const ChangedObjectSchema = z
  .object({
    id: objectId,
    name: z.string(),
    fullName: z.string(),
    type: z.string().meta({ description: "Object type for display." }),
    typeId: z.string().meta({ description: "Object type identifier, the type reference key." }),
    status: z.enum(["Added", "Deleted", "Modified"]).meta({
      description:
        "Added: in `to` only. Deleted: in `from` only (described as `from` had it). Modified: in both, checksums differ.",
    }),
  })
  .strict();

const changeCount = z.number().int().min(0);
export const ChangesSchema = z
  .object({
    from: z
      .string()
      .meta({ description: "`analyzedAt` of the older analysis compared, as /rest/applications lists it." }),
    to: z
      .string()
      .meta({ description: "`analyzedAt` of the newer analysis compared, as /rest/applications lists it." }),
    totals: z
      .object({ added: changeCount, deleted: changeCount, modified: changeCount })
      .strict()
      .meta({ description: "Objects of each status, whatever `status`, `limit` and `skip` ask." }),
    totalObjects: changeCount.meta({ description: "Objects of the statuses asked, independent of limit and skip." }),
    objects: z
      .array(ChangedObjectSchema)
      .meta({ description: "The slice [skip, skip+limit) of the objects of the statuses asked, sorted by name." }),
  })
  .strict();

// Source code (GET …/files/{fileId}).
export const FileTextSchema = z
  .object({
    fileId: z
      .string()
      .regex(/^-?[0-9]{1,19}$/)
      .meta({ description: "Source file ID, as in sourceLocations." }),
    path: z.string().meta({ description: "The file's path in the analysis." }),
    startLine: line.meta({ description: "First line served, 1-based: startLine as asked, else 1." }),
    endLine: z.number().int().min(0).max(0xffffffff).meta({
      description: "Last line served: endLine as asked, cut to the file; below startLine when no line is served.",
    }),
    totalLines: z.number().int().min(0).max(0xffffffff).meta({ description: "Lines of the whole file." }),
    text: z.string().meta({
      description:
        "Lines startLine to endLine exactly as in the file, each with its line feed (the file's last line may have none).",
    }),
  })
  .strict();

// The application catalog (GET /rest/applications).
export const ApplicationVersionSchema = z
  .object({
    analyzedAt: z.string().meta({
      description:
        "When the analysis was made, as published: the value to give as `date` to find objects to read this version.",
    }),
  })
  .strict();

export const ApplicationListSchema = z
  .object({
    applications: z.array(
      z
        .object({
          name: z
            .string()
            .meta({ description: "Application name, as it goes (percent-encoded) in /rest/applications/{name}/..." }),
          versions: z.array(ApplicationVersionSchema).min(1).meta({
            description: "Published analyses, oldest first; the last one is what routes read without `date`.",
          }),
        })
        .strict(),
    ),
  })
  .strict()
  .meta({ description: "The applications the request may read, sorted by name." });

export type ApplicationList = z.infer<typeof ApplicationListSchema>;

/** Every named schema, by its name in the OpenAPI document's components. */
export const API_SCHEMAS = {
  SourceLocation: SourceLocationSchema,
  Object: ObjectSchema,
  FindObjectsResult: FindObjectsResultSchema,
  Characteristics: CharacteristicsSchema,
  Callee: CalleeSchema,
  CalleeList: CalleeListSchema,
  Caller: CallerSchema,
  CallerList: CallerListSchema,
  ObjectRef: ObjectRefSchema,
  GraphLink: GraphLinkSchema,
  CallHierarchy: CallHierarchySchema,
  PathStep: PathStepSchema,
  Paths: PathsSchema,
  TransactionList: TransactionListSchema,
  DataGraphList: DataGraphListSchema,
  FlowGraph: FlowGraphSchema,
  Point: PointSchema,
  PointsResult: PointsResultSchema,
  LevelChild: LevelChildSchema,
  LevelObject: LevelObjectSchema,
  LevelNode: LevelNodeSchema,
  Level5Node: Level5NodeSchema,
  LevelNodeList: LevelNodeListSchema,
  NodeRef: NodeRefSchema,
  LevelGraph: LevelGraphSchema,
  ChangedObject: ChangedObjectSchema,
  Changes: ChangesSchema,
  FileText: FileTextSchema,
  Ready: ReadySchema,
  Problem: ProblemSchema,
} as const;

export type ApiSourceLocation = z.infer<typeof SourceLocationSchema>;
export type ApiObject = z.infer<typeof ObjectSchema>;
export type ApiFindObjectsResult = z.infer<typeof FindObjectsResultSchema>;
export type ApiCharacteristics = z.infer<typeof CharacteristicsSchema>;
export type ApiCallee = z.infer<typeof CalleeSchema>;
export type ApiCaller = z.infer<typeof CallerSchema>;
export type ApiObjectRef = z.infer<typeof ObjectRefSchema>;
export type ApiGraphLink = z.infer<typeof GraphLinkSchema>;
export type ApiCallHierarchy = z.infer<typeof CallHierarchySchema>;
export type ApiPathStep = z.infer<typeof PathStepSchema>;
export type ApiPaths = z.infer<typeof PathsSchema>;
export type ApiFlowGraph = z.infer<typeof FlowGraphSchema>;
export type ApiPoint = z.infer<typeof PointSchema>;
export type ApiPointsResult = z.infer<typeof PointsResultSchema>;
export type ApiLevelChild = z.infer<typeof LevelChildSchema>;
export type ApiLevelObject = z.infer<typeof LevelObjectSchema>;
export type ApiLevelNode = z.infer<typeof LevelNodeSchema>;
export type ApiLevel5Node = z.infer<typeof Level5NodeSchema>;
export type ApiNodeRef = z.infer<typeof NodeRefSchema>;
export type ApiLevelGraph = z.infer<typeof LevelGraphSchema>;
export type ApiChanges = z.infer<typeof ChangesSchema>;
export type ApiChangedObject = z.infer<typeof ChangedObjectSchema>;
export type ApiFileText = z.infer<typeof FileTextSchema>;
/** The schema describes exactly the body ApiError writes: checked here, at compile time, both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const problemSchemaMatchesBody: Same<z.infer<typeof ProblemSchema>, ProblemBody> = true;
void problemSchemaMatchesBody;
