// @module decodeSnapshotModel: reads every section back into a SnapshotModel (round-trip tests, inspect, status bases).
import { decodeAllCallees } from "./link-pages.ts";
import { decodeAllLocations } from "./location-pages.ts";
import type { ObjectRecord, SnapshotModel, SourceFile } from "./model.ts";
import { decodeAllRows } from "./object-rows.ts";
import type { Snapshot } from "./snapshot.ts";
import { decodeAllFiles } from "./source-files.ts";
import { decodeAllText } from "./source-text.ts";

export async function decodeSnapshotModel(snapshot: Snapshot): Promise<SnapshotModel> {
  const s = <T extends Parameters<Snapshot["section"]>[0]>(tag: T) => snapshot.section(tag);
  const [core, type, tyid, lang, fpth, anno, tags, psti, stat, lnkd, taxo, slcd, sfid, sfld, rowd] = await Promise.all([
    s("OBJC"),
    s("TYPE"),
    s("TYID"),
    s("LANG"),
    s("FPTH"),
    s("ANNO"),
    s("TAGS"),
    s("PSTI"),
    s("STAT"),
    s("LNKD"),
    s("TAXO"),
    s("SLCD"),
    s("SFID"),
    s("SFLD"),
    s("ROWD"),
  ]);
  // The row store holds the only copy of the texts as written (the key pages hold them lower-cased),
  // and each object's id and parent, as the id pages do.
  const rows = decodeAllRows(
    rowd,
    await snapshot.readPart("ROWP", 0, snapshot.toc.get("ROWP")?.length ?? 0),
    core.count,
  );
  const locations = decodeAllLocations(slcd, await snapshot.readPart("SLCP", 0, snapshot.toc.get("SLCP")?.length ?? 0));
  const objects: ObjectRecord[] = [];
  for (let r = 0; r < core.count; r++)
    objects.push({
      id: rows[r].id,
      name: rows[r].name,
      fullName: rows[r].fullName,
      type: type.get(r)!,
      typeId: tyid.get(r)!,
      language: lang.get(r),
      filePath: fpth.get(r),
      mangling: rows[r].mangling,
      external: core.external(r),
      annotations: anno.get(r),
      tags: tags.get(r) ?? [],
      parent: rows[r].parent,
      level5: core.level5[r],
      role: core.role(r),
      checksum: stat.checksum(r),
      explicitStatus: stat.explicitStatus(r),
      status: stat.status(r),
      sourceLocations: locations[r],
      postIts: psti.get(r),
    });
  return {
    meta: snapshot.meta,
    objects,
    levels: [1, 2, 3, 4, 5].map((l) => taxo.nodes(l)),
    files: await filesWithText(
      snapshot,
      decodeAllFiles(sfid, sfld, await snapshot.readPart("SFLP", 0, snapshot.toc.get("SFLP")?.length ?? 0)),
    ),
    callees: decodeAllCallees(lnkd, await snapshot.readPart("LNKP", 0, snapshot.toc.get("LNKP")?.length ?? 0)),
  };
}

/** `files` with the text SRCD and SRCP give them. */
async function filesWithText(snapshot: Snapshot, files: SourceFile[]): Promise<SourceFile[]> {
  const length = snapshot.toc.get("SRCP")?.length ?? 0;
  const texts = decodeAllText(await snapshot.section("SRCD"), await snapshot.readPart("SRCP", 0, length));
  return files.map((file, f) => (texts[f] === undefined ? file : { ...file, text: texts[f] }));
}
