// @module LayoutPlan: what several sections of one snapshot are encoded from, each computed once for all of them and released after the last, handed to every section encoder.
import type { Block } from "./blocks.ts";
import { check } from "./errors.ts";
import { countFlows, type FlowTotals, pointRoles } from "./flow-points.ts";
import { type EncodedIdPages, encodeIdPages } from "./id-pages.ts";
import { indexKeysHere, type KeyIndexer, type KeyIndexes } from "./key-indexes.ts";
import { type EncodedKeyPages, encodeKeyPages } from "./key-pages.ts";
import { type EncodedLinkPages, encodeLinkPages } from "./link-pages.ts";
import { encodeLocationPages } from "./location-pages.ts";
import { type MemberPages, memberPageSteps } from "./member-pages.ts";
import type { ObjectRecord, SnapshotModel } from "./model.ts";
import { ranksById } from "./object-core.ts";
import { type RowPages, rowPageSteps } from "./object-rows.ts";
import { encodeHere, type PageEncoder } from "./page-codec.ts";
import { type RankPages, Stepwise } from "./page-directory.ts";
import { encodePointPages, type PointPages } from "./point-pages.ts";
import { type Grouped, groupUnique } from "./search-index.ts";
import { encodeFilePages } from "./source-files.ts";
import { encodeTextPages, type TextPages } from "./source-text.ts";

/**
 * A value of the plan: computed on first use, then kept for the other sections encoded from it
 * until the last of them releases it (a section encoded after that computes it again: the same
 * bytes, at the cost of the work).
 */
export class Planned<T> {
  readonly #compute: () => T;
  #value: { value: T } | undefined;

  constructor(compute: () => T) {
    this.#compute = compute;
  }

  get value(): T {
    this.#value ??= { value: this.#compute() };
    return this.#value.value;
  }

  release(): void {
    this.#value = undefined;
  }
}

/**
 * A planned value that may be started ahead on other threads (LayoutPlan.encodeAhead): the function
 * a start returns gives it, waiting if need be. Not started, it is computed here when first used.
 */
export class StartedPlanned<T> {
  #started: (() => T) | undefined;
  readonly #planned: Planned<T>;

  /** `here` starts the work on this thread (doing it all then, or when its function is called). */
  constructor(here: () => () => T) {
    this.#planned = new Planned(() => {
      const give = this.#started ?? here();
      this.#started = undefined;
      return give();
    });
  }

  get value(): T {
    return this.#planned.value;
  }

  release(): void {
    this.#planned.release();
  }

  /** Starts the work by `ahead`, unless it was started already. */
  start(ahead: () => () => T): void {
    this.#started ??= ahead();
  }
}

/**
 * A planned value encoded in steps (pages coded on other threads): started ahead of its sections
 * (LayoutPlan.encodeAhead), it is finished when they are encoded; else encoded then, whole.
 */
export class SteppedPlanned<T> {
  readonly #steps: () => Generator<void, T>;
  #started: Stepwise<T> | undefined;
  readonly #planned = new Planned(() => {
    const run = this.#started ?? new Stepwise(this.#steps());
    this.#started = undefined;
    return run.finish();
  });

  constructor(steps: () => Generator<void, T>) {
    this.#steps = steps;
  }

  get value(): T {
    return this.#planned.value;
  }

  release(): void {
    this.#planned.release();
  }

  /** The encoding under way, started now if it was not. */
  start(): Stepwise<T> {
    this.#started ??= new Stepwise(this.#steps());
    return this.#started;
  }
}

/** The nearly unique fields, whose keys are in key pages rather than a search index of their own. */
export type GroupedField = "KNAM" | "KFUL" | "KMNG";

const FIELD_VALUES: Record<GroupedField, (o: ObjectRecord) => string> = {
  KNAM: (o) => o.name,
  KFUL: (o) => o.fullName,
  KMNG: (o) => o.mangling,
};

/**
 * Work a plan may hand to other threads, each part where it is given (else done on the compiling
 * thread): the bytes are the same whichever thread does it.
 */
export interface PlanThreads {
  /** Encodes the pages of paged sections. */
  pages?: PageEncoder;
  /**
   * The flow totals of `model` when they are being counted elsewhere already, waiting for them if
   * need be (a PagePool counts them where it grouped the model's links, while the model was made).
   */
  countedFlows?: (model: SnapshotModel) => (() => FlowTotals) | undefined;
  /** Builds the trigram index and the reversed order of a nearly unique field's keys. */
  indexKeys?: KeyIndexer;
}

/**
 * The layouts of one model that more than one section is encoded from: a paged section's pages and
 * its directory; a field's keys grouped for its trigram index, key pages, reversed order and the key
 * of each object; a search index's sorted keys and a trigram index's blocks, for the sections that
 * follow them. Encoders take what they need from it and the last one releases it, so the memory of a
 * compile holds a few at a time. The bytes do not depend on the order the sections are encoded in.
 */
export class LayoutPlan {
  readonly model: SnapshotModel;
  /** Encodes the pages of paged sections (the bytes are the same whichever encodes them). */
  readonly pages: PageEncoder;

  readonly rowPages: SteppedPlanned<RowPages>;
  readonly memberPages: SteppedPlanned<MemberPages>;
  readonly linkPages: Planned<EncodedLinkPages>;
  readonly idPages: Planned<EncodedIdPages>;
  readonly textPages: Planned<TextPages>;
  readonly pointPages: Planned<PointPages>;
  readonly locationPages: Planned<RankPages>;
  readonly filePages: Planned<RankPages>;
  /** Each nearly unique field's values, lower-cased, grouped into sorted keys with their ranks. */
  readonly grouped: Record<GroupedField, Planned<Grouped>>;
  /** Each nearly unique field's key pages, from its grouped keys. */
  readonly keyPages: Record<GroupedField, Planned<EncodedKeyPages>>;
  /** Each nearly unique field's trigram index and reversed order, from its grouped keys. */
  readonly keyIndexes: Record<GroupedField, StartedPlanned<KeyIndexes>>;
  /** A search index's sorted keys, as its section encoded them, until its trigram index is encoded from them. */
  readonly searchKeys = new Map<string, readonly string[]>();
  /** A trigram index's blocks, as its section encoded them, until its chunk directory is encoded from them. */
  readonly trigramBlocks = new Map<string, Block[]>();
  /** The size of each start and end point's graph. */
  readonly flowTotals: StartedPlanned<FlowTotals>;
  /** Builds the key indexes on other threads, when given. */
  readonly #indexKeys: KeyIndexer | undefined;

  constructor(model: SnapshotModel, threads: PlanThreads = {}) {
    this.model = model;
    this.pages = threads.pages ?? encodeHere;
    this.#indexKeys = threads.indexKeys;
    const pages = this.pages;
    const { objects } = model;
    this.flowTotals = new StartedPlanned(() => {
      const totals = countFlows(model.callees, pointRoles(objects));
      return () => totals;
    });
    const counted = threads.countedFlows?.(model);
    if (counted) this.flowTotals.start(() => counted);
    this.rowPages = new SteppedPlanned(() => rowPageSteps(objects, pages));
    this.memberPages = new SteppedPlanned(() => memberPageSteps(model, pages));
    this.linkPages = new Planned(() => encodeLinkPages(model));
    this.idPages = new Planned(() => encodeIdPages(objects, ranksById(objects)));
    this.textPages = new Planned(() => encodeTextPages(model.files, pages));
    this.pointPages = new Planned(() => encodePointPages(model, pages));
    this.locationPages = new Planned(() => encodeLocationPages(objects));
    this.filePages = new Planned(() => encodeFilePages(model.files));
    const grouped = (field: GroupedField) =>
      new Planned(() => groupUnique(objects.length, (r) => FIELD_VALUES[field](objects[r])));
    this.grouped = { KNAM: grouped("KNAM"), KFUL: grouped("KFUL"), KMNG: grouped("KMNG") };
    const keyPages = (field: GroupedField) =>
      new Planned(() => {
        const { keys, offsets, postings } = this.grouped[field].value;
        if (field !== "KNAM") return encodeKeyPages(keys, { offsets, ranks: postings });
        // A name's ranks are its postings' positions (ranks follow lower-cased names): KNAM stores counts alone.
        check(
          postings.every((rank, i) => rank === i),
          "KNAM: objects are not in lower-cased name order",
        );
        return encodeKeyPages(keys, { offsets, ranks: null });
      });
    this.keyPages = { KNAM: keyPages("KNAM"), KFUL: keyPages("KFUL"), KMNG: keyPages("KMNG") };
    const keyIndexes = (field: GroupedField) => new StartedPlanned(() => indexKeysHere(this.grouped[field].value.keys));
    this.keyIndexes = { KNAM: keyIndexes("KNAM"), KFUL: keyIndexes("KFUL"), KMNG: keyIndexes("KMNG") };
  }

  /**
   * Starts the keys' indexes on other threads when an indexer there was given, and the row and
   * member pages (most of what is coded), and returns what encodes more of them
   * while the page encoder has room (only one on other threads has): called between sections, so
   * that its threads code those pages while the sections before them are encoded.
   * The pages are the same, in the same order, as when encoded in their turn.
   */
  encodeAhead(): () => void {
    // First, the keys' indexes, some 8 s of one thread at 1M objects: their keys are grouped now,
    // and held until their sections (the last of which releases them).
    const indexer = this.#indexKeys;
    if (indexer)
      for (const field of ["KNAM", "KFUL", "KMNG"] as const)
        this.keyIndexes[field].start(() => indexer(this.grouped[field].value.keys));
    const hasRoom = this.pages.hasRoom?.bind(this.pages);
    if (!hasRoom) return () => {};
    const runs = [this.rowPages.start(), this.memberPages.start()];
    return () => {
      for (const run of runs) while (hasRoom() && run.step());
    };
  }
}
