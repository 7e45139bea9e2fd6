// @module startEndPoints: start points reaching the object and end points it reaches within `hops` links.

import type { ApiPoint } from "../contract/api-schemas.ts";
import { ApiError } from "../contract/errors.ts";
import { SOURCE_IS_START, TARGET_IS_END } from "../format/link-pages.ts";
import type { HopsDirection, PointHops } from "../format/point-hops.ts";
import type { Snapshot } from "../format/snapshot.ts";
import { waitUntil } from "../wait-until.ts";
import { ChunksAhead, chunksOf } from "./chunks-ahead.ts";
import { type HeavyGate, heavyAnswers } from "./heavy-gate.ts";
import { linkRows, prefetchLinks } from "./link-rows.ts";
import { rankOfId } from "./lookup.ts";
import { pointsOf, readPointPagesAhead } from "./point-texts.ts";
import { distinctAscending, RankBitmap } from "./rank-set.ts";
import { renderPoints } from "./render.ts";
import type { StreamedList } from "./streamed-list.ts";
import { HEAVY_LINKS, LINKS_A_TURN, Turns } from "./turns.ts";

/**
 * Links one request may follow, both directions together: enough to walk a whole 1M-object,
 * 5M-link application, and a bound on the CPU any single request can take on a larger one.
 */
export const TRAVERSAL_BUDGET = 12_000_000;

/**
 * HOPS is read whole while it takes at most this share of the section budget: 3.6 MiB at 1M objects
 * under 64 MiB (a byte an object, and the lists of points one link away). An application large
 * enough to pass it walks without it, expanding every object it reaches, rather than read megabytes
 * again whenever the cache let them go.
 */
const HOPS_SHARE = 1 / 8;

/**
 * Frontier ranks whose links are loaded at a time: a walk over much of a large graph then holds a
 * few MB of link pages beside the section cache (those of the chunk walked and of the chunks read
 * ahead), not the links of a whole level.
 */
const FRONTIER_CHUNK = 512;

/**
 * Breadth-first from `origin`, at most `hops` steps, loading the links of the frontier chunk by
 * chunk (in rank order, so a chunk shares pages); returns the ranks reached (origin included) whose
 * role is the direction's (up: start points, down: end points), ascending; `originIsPoint` says
 * whether `origin` has it. A link says the role of the object at its other end, so the last
 * frontier's own links are never loaded, nor the origin's unless it is expanded. Which ranks a step
 * reaches, and whether it exceeds the budget, do not depend on the order its frontier is walked in.
 *
 * An object is expanded only if HOPS (`nearest`, when given) says a point may lie within the links
 * left past it. Most objects lead to no point at all (69% of the benchmark's 1M, down the callees):
 * its 3-hop walks, both directions, load the links of some 35 objects each, where expanding every
 * object reached would load some 90.
 * Every point within `hops` is still found: each object on a shortest path to it is at most as far
 * from it as the rest of the path, so none of them is skipped. The last step only looks for points
 * one link past its frontier, which HOPS lists: it reads no link page, so a walk waits on one round
 * of reads fewer (a 1-hop walk on none), and a 3-hop walk reads some 5 link pages rather than 19.
 * `points` are FLOW's ranks of the direction's role, which those lists index.
 *
 * What the walk has seen is a bitmap of the application, a bit an object: a walk over all of 300k
 * objects holds 37.5 KB, where a Set would grow (and be copied as it grew) to tens of MB. Each step's
 * newly reached objects and those with the role are lists, put in rank order as distinctAscending
 * does (sorted when few, through a bitmap when many): a 3-hop walk at 1M objects reaches some
 * hundreds, and scanning a bitmap of 31,250 words for them at every step would take an eighth of its CPU.
 */
async function reach(
  snapshot: Snapshot,
  origin: number,
  hops: number,
  direction: HopsDirection,
  points: Uint32Array,
  originIsPoint: boolean,
  { budget, frontierChunk, nearest, turns, keepFrom }: Walking,
): Promise<Uint32Array> {
  const objects = snapshot.meta.counts.objects;
  const keptAs = () => `points:${direction}:${origin}:${hops}`;
  // Links this direction followed: what a walk kept for later answers is charged to their budget.
  let followed = 0;
  const tooMany = () =>
    new ApiError(
      "invalid_parameter",
      `hops=${hops} from this object would follow more than ${budget.limit} links; ask for fewer hops`,
      { parameter: "hops" },
    );
  // Links past the budget are visited before it says no: the walk is then refused whole.
  const spend = (links: number) => {
    followed += links;
    budget.links -= links;
    if (budget.links < 0) throw tooMany();
  };
  /** The same walk, if an earlier answer kept it: charged as if walked. */
  const keptWalk = () => {
    const kept = snapshot.recall<KeptWalk>(keptAs());
    if (kept) spend(kept.links - followed);
    return kept?.ranks;
  };
  const seen = new RankBitmap(objects);
  // Its words go back for the next walk (RankBitmap.release), however this one ends.
  try {
    seen.add(origin);
    const found: number[] = originIsPoint ? [origin] : [];
    let frontier: Uint32Array = Uint32Array.of(origin);
    for (let step = 0; step < hops; step++) {
      if (nearest) frontier = frontier.filter((r) => nearest.leadsOn(r, direction, hops - step));
      if (frontier.length === 0) break;
      // Between steps the walk holds no link pages: a heavy one waits its turn here, and may find
      // the walk done meanwhile by an answer that waited before it (or before it started).
      await turns.admitted();
      const kept = step === 0 || followed >= keepFrom ? keptWalk() : undefined;
      if (kept) return kept;
      const next: number[] = [];
      // Each link's other end, and whether it has the role sought.
      const reached = (n: number, role: boolean) => {
        if (seen.has(n)) return;
        seen.add(n);
        next.push(n);
        if (role) found.push(n);
      };
      if (nearest && step === hops - 1) {
        // The last step: the points one link past the frontier, from HOPS, each a link followed.
        const viaLink = (point: number) => reached(point, true);
        for (const chunk of chunksOf(frontier, frontierChunk)) {
          const before = followed;
          for (const r of chunk) spend(nearest.forEachAdjacentPoint(r, direction, points, viaLink));
          await turns.after(followed - before);
        }
        break;
      }
      const viaCallee = (target: number, _type: number, flags: number) =>
        reached(target, (flags & TARGET_IS_END) !== 0);
      const viaCaller = (caller: number, flags: number) => reached(caller, (flags & SOURCE_IS_START) !== 0);
      const chunks = chunksOf(frontier, frontierChunk);
      const ahead = new ChunksAhead(chunks, (chunk) => linkRows(snapshot, chunk, { sweeping: "keep" }));
      try {
        for (const chunk of chunks) {
          const links = await ahead.next();
          const before = followed;
          for (const r of chunk)
            spend(direction === "up" ? links.forEachCaller(r, viaCaller) : links.forEachCallee(r, viaCallee));
          await turns.after(followed - before);
        }
      } finally {
        ahead.abandon();
      }
      frontier = distinctAscending(Uint32Array.from(next), objects);
    }
    const ranks = distinctAscending(Uint32Array.from(found), objects);
    // Unless an answer beside kept it first.
    if (followed >= keepFrom) {
      const walk: KeptWalk = { ranks, links: followed, byteSize: ranks.byteLength };
      snapshot.keepWorked(keptAs(), walk);
    }
    return ranks;
  } finally {
    seen.release();
  }
}

/** A heavy walk's outcome, kept in the section cache: the ranks it found and the links it followed. */
interface KeptWalk {
  readonly ranks: Uint32Array;
  readonly links: number;
  readonly byteSize: number;
}

/** Whether a walk of `hops` from `origin` reads the origin's links (see reach): it expands it, by a step other than the last one HOPS takes. */
function readsLinksOf(origin: number, hops: number, nearest: PointHops | null): boolean {
  if (!nearest) return hops >= 1;
  return hops >= 2 && (nearest.leadsOn(origin, "up", hops) || nearest.leadsOn(origin, "down", hops));
}

export interface PointsResult {
  /** Read as they are written. */
  startPoints: StreamedList<ApiPoint>;
  endPoints: StreamedList<ApiPoint>;
}

/** What both directions of one answer's walk share. */
interface Walking {
  budget: { links: number; limit: number };
  frontierChunk: number;
  nearest: PointHops | null;
  turns: Turns;
  /** Links past which a direction's walk is kept for the answers that ask it again (a heavy one's). */
  keepFrom: number;
}

/** How a walk is bounded and paced; tests make each small. */
export interface WalkTuning {
  /** Links both directions may follow together. */
  traversalBudget?: number;
  /** Frontier ranks whose links are loaded at a time. */
  frontierChunk?: number;
  /** Links followed between two turns of the event loop. */
  linksATurn?: number;
  /** Where a walk past `heavyLinks` links (HEAVY_LINKS) waits its turn. */
  gate?: HeavyGate;
  heavyLinks?: number;
  /** The request's signal: a walk stops (throwing its reason) once the client has gone. */
  signal?: AbortSignal;
}

/** Both walks run here, before anything is written: a walk past the traversal budget is a 400, not an answer cut short. */
export async function startEndPoints(
  snapshot: Snapshot,
  id: string,
  hops: number,
  {
    traversalBudget = TRAVERSAL_BUDGET,
    frontierChunk = FRONTIER_CHUNK,
    linksATurn = LINKS_A_TURN,
    gate = heavyAnswers,
    heavyLinks = HEAVY_LINKS,
    signal,
  }: WalkTuning = {},
): Promise<PointsResult> {
  // What the walk and then writing its points need, read with the object's id page, and kept alive
  // past an answer that ends without them (an unknown id).
  const flowRead = snapshot.section("FLOW");
  // A file without HOPS is refused where the section is asked for.
  const hopsLength = snapshot.toc.get("HOPS")?.length ?? 0;
  const hopsRead = hopsLength <= snapshot.budgetBytes * HOPS_SHARE ? snapshot.section("HOPS") : null;
  waitUntil(flowRead);
  if (hopsRead) waitUntil(hopsRead);
  snapshot.readWholeAhead("PNTP");
  const rank = await rankOfId(snapshot, id);
  const [flow, nearest] = await Promise.all([flowRead, hopsRead]);
  if (!readsLinksOf(rank, hops, nearest)) prefetchLinks(snapshot, rank);
  const turns = new Turns(linksATurn, { gate, after: heavyLinks, signal });
  const walking: Walking = {
    budget: { links: traversalBudget, limit: traversalBudget },
    frontierChunk,
    nearest,
    turns,
    keepFrom: heavyLinks,
  };
  // The two walks run together: a cold walk then waits one round of reads a step, not two.
  let starts: Uint32Array;
  let ends: Uint32Array;
  try {
    [starts, ends] = await Promise.all([
      reach(snapshot, rank, hops, "up", flow.starts, flow.has("start", rank), walking),
      reach(snapshot, rank, hops, "down", flow.ends, flow.has("end", rank), walking),
    ]);
  } finally {
    turns.done();
  }
  // Where the points lie in the point pages, from FLOW's lists.
  const [startPoints, endPoints] = await Promise.all([
    pointsOf(snapshot, starts, "start"),
    pointsOf(snapshot, ends, "end"),
  ]);
  readPointPagesAhead(snapshot, [startPoints, endPoints]);
  return { startPoints: renderPoints(snapshot, startPoints), endPoints: renderPoints(snapshot, endPoints) };
}
