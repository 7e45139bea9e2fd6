// @module expectedRow: the row the row store must give of an object of a model (the encoder's, or one decoded from its columns).
import type { ObjectRecord } from "../../src/format/model.ts";
import type { ObjectRow } from "../../src/format/object-rows.ts";

export const expectedRow = (o: ObjectRecord): ObjectRow => ({
  id: o.id,
  name: o.name,
  fullName: o.fullName,
  type: o.type,
  typeId: o.typeId,
  filePath: o.filePath,
  mangling: o.mangling,
  external: o.external,
  annotations: o.annotations,
  tags: o.tags,
  language: o.language,
  parent: o.parent,
  explicitStatus: o.explicitStatus,
  status: o.status,
});
