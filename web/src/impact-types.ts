// @module The answers of the impact and history routes under the names the explorer's views use, from the contract's schemas (src/contract/api-schemas.ts).
import type { z } from "zod";
import type {
  ApiCallHierarchy,
  ApiChanges,
  ApiFileText,
  ApiFlowGraph,
  ApiObjectRef,
  DataGraphListSchema,
  TransactionListSchema,
} from "../../src/contract/api-schemas.ts";

export type { ApiCaller } from "../../src/contract/api-schemas.ts";

export type GraphItem = ApiObjectRef;

/** A node of a call hierarchy, or of a transaction or data graph (those say its role). */
export type LayeredNode = ApiCallHierarchy["nodes"][number] & { role?: ApiFlowGraph["nodes"][number]["role"] };

/** Call hierarchy, transaction graph and data graph: nodes by depth, links among them. */
export type LayeredGraph = Omit<ApiCallHierarchy, "nodes"> & { nodes: LayeredNode[] };

export type TransactionList = z.infer<typeof TransactionListSchema>;
export type DataGraphList = z.infer<typeof DataGraphListSchema>;

export type Changes = ApiChanges;
export type ChangeStatus = ApiChanges["objects"][number]["status"];
export type SourceFile = ApiFileText;
