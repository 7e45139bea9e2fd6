// @module The answers of the impact routes as the explorer reads them: callers, call hierarchy, transactions and data graphs, changes, source files.
import type { ApiCallee } from "../../src/contract/api-schemas.ts";

/** One (caller, linkType) of the links ending at an object: the mirror of a callee. */
export type ApiCaller = ApiCallee;

export interface GraphItem {
  id: string;
  name: string;
  fullName: string;
  type: string;
  typeId: string;
}

export interface LayeredNode extends GraphItem {
  /** Smallest number of links from the object, start point or end point walked from (itself: 0). */
  depth: number;
  /** Transactions and data graphs only: whether the node is a start or an end point. */
  role?: "start" | "end" | null;
}

/** Call hierarchy, transaction graph and data graph: nodes by depth, links among them. */
export interface LayeredGraph {
  totalNodes: number;
  truncated: boolean;
  nodes: LayeredNode[];
  links: { from: string; to: string; linkType: string }[];
}

export interface TransactionList {
  totalTransactions: number;
  transactions: GraphItem[];
}

export interface DataGraphList {
  totalDataGraphs: number;
  dataGraphs: GraphItem[];
}

export type ChangeStatus = "Added" | "Deleted" | "Modified";

export interface Changes {
  from: string;
  to: string;
  totals: { added: number; deleted: number; modified: number };
  totalObjects: number;
  objects: (GraphItem & { status: ChangeStatus })[];
}

export interface SourceFile {
  fileId: string;
  path: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  text: string;
}
