// @module fieldValues: one filter field's values of an object, read from its column, for checking a few candidates instead of matching the whole index.
import type { Snapshot } from "../format/snapshot.ts";
import type { FilterName } from "./find-objects.ts";

/** The field's values of the object at `rank` (none when it has none). */
export type FieldValues = (rank: number) => readonly string[];

const one = (value: string | null): readonly string[] => (value === null ? [] : [value]);

export async function fieldValues(snapshot: Snapshot, field: FilterName): Promise<FieldValues> {
  switch (field) {
    case "name":
    case "fullname":
    case "mangling": {
      const column = await snapshot.section(field === "name" ? "NAME" : field === "fullname" ? "FULL" : "MANG");
      return (rank) => [column.get(rank)];
    }
    case "type":
    case "filepath": {
      const column = await snapshot.section(field === "type" ? "TYPE" : "FPTH");
      return (rank) => one(column.get(rank));
    }
    case "annotation":
    case "tag": {
      const column = await snapshot.section(field === "annotation" ? "ANNO" : "TAGS");
      return (rank) => column.get(rank) ?? [];
    }
    case "post-it": {
      const column = await snapshot.section("PSTI");
      return (rank) => column.get(rank).map((p) => p.title);
    }
  }
}
