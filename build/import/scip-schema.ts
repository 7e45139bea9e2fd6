// @module The subset of SCIP's protobuf schema (sourcegraph/scip, scip.proto) the importer reads, as hand-written descriptors for @bufbuild/protobuf.
import { create, createFileRegistry, type DescMessage, fromBinary, type MessageInitShape } from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  type FieldDescriptorProtoSchema,
  FileDescriptorProtoSchema,
} from "@bufbuild/protobuf/wkt";

/*
 * Field numbers are scip.proto's. Fields the importer does not read (documentation, diagnostics,
 * syntax_kind ...) are left out of the descriptors: the decoder skips them. Enum fields
 * (SymbolInformation.kind) are declared int32, which has the same wire encoding, and are mapped by
 * number in scip-kinds.ts.
 */

const { STRING, INT32, BOOL, MESSAGE } = FieldDescriptorProto_Type;
type FieldSpec = [
  name: string,
  number: number,
  type: FieldDescriptorProto_Type,
  repeated?: "repeated",
  message?: string,
];

const message = (name: string, fields: FieldSpec[]) => ({
  name,
  field: fields.map(
    ([fieldName, number, type, repeated, typeName]): MessageInitShape<typeof FieldDescriptorProtoSchema> => ({
      name: fieldName,
      number,
      type,
      label: repeated ? FieldDescriptorProto_Label.REPEATED : FieldDescriptorProto_Label.OPTIONAL,
      ...(typeName ? { typeName: `.scip.${typeName}` } : {}),
    }),
  ),
});

const SCIP_FILE = create(FileDescriptorProtoSchema, {
  name: "scip.proto",
  package: "scip",
  syntax: "proto3",
  messageType: [
    message("Index", [
      ["metadata", 1, MESSAGE, undefined, "Metadata"],
      ["documents", 2, MESSAGE, "repeated", "Document"],
      ["external_symbols", 3, MESSAGE, "repeated", "SymbolInformation"],
    ]),
    message("Metadata", [
      ["version", 1, INT32],
      ["tool_info", 2, MESSAGE, undefined, "ToolInfo"],
      ["project_root", 3, STRING],
    ]),
    message("ToolInfo", [
      ["name", 1, STRING],
      ["version", 2, STRING],
    ]),
    message("Document", [
      ["relative_path", 1, STRING],
      ["occurrences", 2, MESSAGE, "repeated", "Occurrence"],
      ["symbols", 3, MESSAGE, "repeated", "SymbolInformation"],
      ["language", 4, STRING],
      ["text", 5, STRING],
      ["position_encoding", 6, INT32],
    ]),
    message("SymbolInformation", [
      ["symbol", 1, STRING],
      ["relationships", 4, MESSAGE, "repeated", "Relationship"],
      ["kind", 5, INT32],
      ["display_name", 6, STRING],
      ["enclosing_symbol", 8, STRING],
    ]),
    message("Relationship", [
      ["symbol", 1, STRING],
      ["is_reference", 2, BOOL],
      ["is_implementation", 3, BOOL],
      ["is_type_definition", 4, BOOL],
      ["is_definition", 5, BOOL],
    ]),
    message("Occurrence", [
      ["range", 1, INT32, "repeated"],
      ["symbol", 2, STRING],
      ["symbol_roles", 3, INT32],
      ["enclosing_range", 7, INT32, "repeated"],
    ]),
  ],
});

const registry = createFileRegistry(SCIP_FILE, () => undefined);
const schema = (name: string): DescMessage => registry.getMessage(`scip.${name}`)!;

/** The message schemas, for the importer's reader and for tests that write indexes of their own. */
export const ScipSchema = {
  Index: schema("Index"),
  Metadata: schema("Metadata"),
  Document: schema("Document"),
  SymbolInformation: schema("SymbolInformation"),
  Relationship: schema("Relationship"),
  Occurrence: schema("Occurrence"),
};

/** scip.proto's SymbolRole bits the importer reads. */
export const SymbolRole = { Definition: 0x1, Import: 0x2 } as const;

export interface ScipIndex {
  metadata?: { version: number; toolInfo?: { name: string; version: string }; projectRoot: string };
  documents: ScipDocument[];
  externalSymbols: ScipSymbolInformation[];
}

export interface ScipDocument {
  relativePath: string;
  language: string;
  /** The file's text, when the indexer includes it (most do not). */
  text: string;
  /** PositionEncoding: how range characters count (1 UTF-8, 2 UTF-16, 3 UTF-32 code units; 0 unspecified). */
  positionEncoding: number;
  occurrences: ScipOccurrence[];
  symbols: ScipSymbolInformation[];
}

export interface ScipSymbolInformation {
  symbol: string;
  relationships: ScipRelationship[];
  kind: number;
  displayName: string;
  enclosingSymbol: string;
}

export interface ScipRelationship {
  symbol: string;
  isReference: boolean;
  isImplementation: boolean;
  isTypeDefinition: boolean;
  isDefinition: boolean;
}

export interface ScipOccurrence {
  range: number[];
  symbol: string;
  symbolRoles: number;
  enclosingRange: number[];
}

/** Decodes the bytes of an index; throws the decoder's error on bytes that are not protobuf (a truncated file, another format). */
export function decodeScipIndex(bytes: Uint8Array): ScipIndex {
  return fromBinary(ScipSchema.Index, bytes, { readUnknownFields: false }) as unknown as ScipIndex;
}
