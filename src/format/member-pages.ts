// @module MemberPages: each level-5 node's members as its children answer lists them (MEMP pages, MEMD directory), a covering index read by range and never cached.
//
// A level-5 node's members are scattered over the name order (a few thousand among a million
// objects), so reading their summaries from the row store costs most row pages per answer. Here a node's members are contiguous pages holding exactly what
// the answer lists of each (id, name, fullName, type, typeId), in its order: one node costs a read
// or two of its own bytes. Names, full names and types are stored again for that: a covering index.
// A page is the answer's own JSON text for its members: checked, it is written out as it is, and
// an answer of 121k members costs no parse into objects and no stringify back.
// Pages are deflated by fflate (deterministic bytes, as content addressing needs) and inflated natively.
import type { Block, Blocks } from "./blocks.ts";
import { check, SnapshotLimitError } from "./errors.ts";
import { inflateExactly } from "./inflate.ts";
import { jsonObjectsIn, stringFieldsObject } from "./json-objects.ts";
import type { SnapshotModel } from "./model.ts";
import { encodeHere, type PageEncoder } from "./page-codec.ts";
import { PageDirectory, PageWriter, pageStartingAtOrBefore, Stepwise } from "./page-directory.ts";
import type { Snapshot } from "./snapshot.ts";
import { decodeUtf8 } from "./string-list.ts";

/** A node's pages are cut once their JSON reaches this many bytes: a few pages for a node of thousands. */
export const MEMBER_PAGE_BYTES = 64 * 1024;

/** Largest JSON a page may hold: room for one member far larger than any analysis shows, bounded for readers. */
export const MAX_MEMBER_PAGE = 16 * MEMBER_PAGE_BYTES;

/** Consecutive pages of a node are read together, up to this many stored bytes a read (18k members take about 600 KB). */
const MAX_READ_BYTES = 512 * 1024;

/** What a level-5 node's children list of each member, in this order: a page holds its members as JSON.stringify writes this. */
export interface MemberSummary {
  id: string;
  name: string;
  fullName: string;
  type: string;
  typeId: string;
}

export interface MemberPages {
  /** MEMP's one block: the pages back to back, each a raw-deflated UTF-8 JSON array of member objects. */
  pages: Uint8Array;
  firstPages: Uint32Array;
  offsets: Uint32Array;
  crcs: Uint32Array;
  rawLengths: Uint32Array;
  memberCounts: Uint32Array;
}

const encoder = new TextEncoder();

/** Lays out each level-5 node's members (ascending rank, so name order) as pages of its own. */
export function encodeMemberPages(model: SnapshotModel, pages: PageEncoder = encodeHere): MemberPages {
  return new Stepwise(memberPageSteps(model, pages)).finish();
}

/** `encodeMemberPages` in steps of one level-5 node. */
export function* memberPageSteps(model: SnapshotModel, pages: PageEncoder): Generator<void, MemberPages> {
  const nodes = model.levels[4].length;
  const byNode: number[][] = Array.from({ length: nodes }, () => []);
  model.objects.forEach((o, rank) => byNode[o.level5].push(rank));
  const out = new PageWriter(pages);
  const firstPages = new Uint32Array(nodes + 1);
  const rawLengths: number[] = [];
  const memberCounts: number[] = [];
  let page: string[] = [];
  let pageBytes = 0;
  let firstMember = "";
  const cut = () => {
    const json = encoder.encode(`[${page.join(",")}]`);
    // Only a page of one member can get here (a large member starts a page of its own, below).
    if (json.length > MAX_MEMBER_PAGE)
      throw new SnapshotLimitError(
        `object ${firstMember} has ${json.length - 2} bytes of id, names and type as JSON; a snapshot holds at most ${MAX_MEMBER_PAGE - 2} for a member of a level-5 node`,
      );
    out.add(json);
    rawLengths.push(json.length);
    memberCounts.push(page.length);
    page = [];
    pageBytes = 0;
  };
  for (let node = 0; node < nodes; node++) {
    firstPages[node] = out.pageCount;
    const ranks = byNode[node];
    for (const rank of ranks) {
      const { id, name, fullName, type, typeId } = model.objects[rank];
      const member: MemberSummary = { id, name, fullName, type, typeId };
      const text = JSON.stringify(member);
      // UTF-8 takes at most three bytes per UTF-16 unit: a member that could take the page past
      // MAX_MEMBER_PAGE starts a page of its own. No member of a real analysis comes near.
      if (page.length > 0 && 3 * (pageBytes + text.length + 2) > MAX_MEMBER_PAGE) cut();
      if (page.length === 0) firstMember = id;
      page.push(text);
      pageBytes += text.length + 1;
      if (pageBytes >= MEMBER_PAGE_BYTES) cut();
    }
    if (page.length) cut();
    yield;
  }
  firstPages[nodes] = out.pageCount;
  return {
    firstPages,
    rawLengths: Uint32Array.from(rawLengths),
    memberCounts: Uint32Array.from(memberCounts),
    ...out.finish(),
  };
}

/**
 * MEMD's five blocks: u32 first page of each level-5 node (N + 1), u32 byte offset of each page in
 * MEMP's block (P + 1), u32 CRC-32 of each page's stored bytes (P), u32 length of each page's JSON
 * (P), u32 members on each page (P).
 */
export function encodeMemberDirectory(pages: MemberPages): Block[] {
  return [pages.firstPages, pages.offsets, pages.crcs, pages.rawLengths, pages.memberCounts];
}

/** Where each level-5 node's member pages lie, and what each holds. */
export class MemberDirectory extends PageDirectory {
  readonly firstPages: Uint32Array;
  readonly rawLengths: Uint32Array;
  readonly memberCounts: Uint32Array;

  constructor(blocks: Blocks, nodes: number, objects: number) {
    super(blocks.u32(1), blocks.u32(2), "member pages");
    this.firstPages = blocks.u32(0);
    this.rawLengths = blocks.u32(3);
    this.memberCounts = blocks.u32(4);
    const pages = this.crcs.length;
    check(
      this.firstPages.length === nodes + 1 && this.rawLengths.length === pages && this.memberCounts.length === pages,
      `member directory: ${nodes} level-5 nodes and ${pages} pages, but ${this.firstPages.length} first pages, ${this.rawLengths.length} lengths and ${this.memberCounts.length} counts`,
    );
    check(
      this.firstPages[0] === 0 && this.firstPages[nodes] === pages,
      "member directory: the nodes' pages do not run from the first page to the last",
    );
    for (let n = 0; n < nodes; n++)
      check(this.firstPages[n] <= this.firstPages[n + 1], `member directory: node ${n}'s pages end before they start`);
    this.checkRawLengths(this.rawLengths, MAX_MEMBER_PAGE, "member directory", "JSON");
    let members = 0;
    for (let p = 0; p < pages; p++) {
      check(this.memberCounts[p] > 0, `member directory: page ${p} holds no members`);
      members += this.memberCounts[p];
    }
    check(members === objects, `member directory: its pages hold ${members} members of ${objects} objects`);
  }

  /** Members of level-5 node `node`: what its pages hold. */
  memberCount(node: number): number {
    let count = 0;
    for (let p = this.firstPages[node]; p < this.firstPages[node + 1]; p++) count += this.memberCounts[p];
    return count;
  }

  /** The level-5 node whose members page `p` holds. */
  nodeOf(p: number): number {
    // The last node starting at or before p: nodes without members before it share its start.
    return pageStartingAtOrBefore(this.firstPages, p);
  }

  /**
   * The JSON text of page `p` in UTF-8 (from its stored bytes exactly), after checking its checksum
   * and its length, and, the first time, its UTF-8 and that it is an array of exactly its count of
   * members as JSON.stringify writes a MemberSummary: text that passes is written into answers as it
   * is. A page checked once is not checked again (checkOnce): the check took a fifth of a large
   * node's answer.
   */
  pageJson(p: number, bytes: Uint8Array): Uint8Array {
    this.verify(p, bytes);
    const json = inflateExactly(bytes, this.rawLengths[p], `member page ${p}`);
    this.checkOnce(p, () => {
      const count = jsonObjectsIn(decodeUtf8(json), MEMBER);
      check(count >= 0, `member page ${p} is not a JSON array of {id, name, fullName, type, typeId} members`);
      check(
        count === this.memberCounts[p],
        `member page ${p} holds ${count} members, expected ${this.memberCounts[p]}`,
      );
    });
    return json;
  }

  /** Page `p`'s members (its stored bytes exactly), checked as pageJson checks them. */
  decodePage(p: number, bytes: Uint8Array): MemberSummary[] {
    return JSON.parse(decodeUtf8(this.pageJson(p, bytes)));
  }

  override get byteSize(): number {
    return super.byteSize + this.firstPages.byteLength + this.rawLengths.byteLength + this.memberCounts.byteLength;
  }
}

/** One member as JSON.stringify writes a MemberSummary. */
const MEMBER = stringFieldsObject(["id", "name", "fullName", "type", "typeId"]);

/** The members of level-5 node `node`, a page at a time, in the answer's order (see memberPageRuns). */
export function memberPages(snapshot: Snapshot, node: number): AsyncGenerator<MemberSummary[]> {
  return memberPageRuns(snapshot, node, (directory, p, bytes) => directory.decodePage(p, bytes));
}

/** The JSON text in UTF-8 of each of level-5 node `node`'s member pages (a JSON array of its members), in the answer's order. */
export function memberPageJson(snapshot: Snapshot, node: number): AsyncGenerator<Uint8Array> {
  return memberPageRuns(snapshot, node, (directory, p, bytes) => directory.pageJson(p, bytes));
}

/**
 * Each of level-5 node `node`'s pages decoded by `decode`. Read by range (a run of pages up to
 * MAX_READ_BYTES a read, the next run read while this one is decoded) and never put in the section
 * cache: a node's pages are read once per answer, and kept they would push out the small sections
 * and pages that most answers share.
 */
async function* memberPageRuns<T>(
  snapshot: Snapshot,
  node: number,
  decode: (directory: MemberDirectory, p: number, bytes: Uint8Array) => T,
): AsyncGenerator<T> {
  const directory = await snapshot.section("MEMD");
  check(node >= 0 && node + 1 < directory.firstPages.length, `no level-5 node ${node}`);
  const first = directory.firstPages[node];
  const end = directory.firstPages[node + 1];
  if (first === end) return;
  const { offsets } = directory;
  const { start } = snapshot.pagesBlock("MEMP", directory.pagesBytes);
  const runEnd = (from: number) => {
    let to = from + 1;
    while (to < end && offsets[to + 1] - offsets[from] <= MAX_READ_BYTES) to++;
    return to;
  };
  const read = (from: number, to: number) =>
    snapshot.readPart("MEMP", start + offsets[from], offsets[to] - offsets[from]);
  let from = first;
  let to = runEnd(from);
  let run = read(from, to);
  while (from < end) {
    const bytes = await run;
    const next = to < end ? runEnd(to) : to;
    if (next > to) run = read(to, next);
    // Not awaited until the loop comes round: a failed read of the next run must not go unhandled meanwhile.
    run.catch(() => {});
    for (let p = from; p < to; p++)
      yield decode(directory, p, bytes.subarray(offsets[p] - offsets[from], offsets[p + 1] - offsets[from]));
    [from, to] = [to, next];
  }
}
