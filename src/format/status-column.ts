// @module StatusColumn: per-object checksum, explicit status and served status (semantics.md §3).
import { type Block, type Blocks } from "./blocks.ts";
import { check } from "./errors.ts";
import { type ObjectRecord, STATUSES, type Status } from "./model.ts";
import { NullableStringList, encodeNullableStringList } from "./string-list.ts";

const code = (s: Status | null) => (s === null ? 0 : STATUSES.indexOf(s) + 1);

/** Five blocks: checksums (NullableStringList); u8 explicit status; u8 served status (0 null, 1 Added, 2 Modified, 3 Unchanged). */
export function encodeStatusColumn(objects: readonly ObjectRecord[]): Block[] {
  return [
    ...encodeNullableStringList(objects.map((o) => o.checksum)),
    Uint8Array.from(objects, (o) => code(o.explicitStatus)),
    Uint8Array.from(objects, (o) => code(o.status)),
  ];
}

export class StatusColumn {
  readonly checksums: NullableStringList;
  private readonly explicit: Uint8Array;
  private readonly served: Uint8Array;

  constructor(blocks: Blocks, rows: number) {
    this.checksums = new NullableStringList(blocks, 0, "checksums");
    this.explicit = blocks.u8(3);
    this.served = blocks.u8(4);
    check(this.checksums.length === rows && this.explicit.length === rows && this.served.length === rows, "status columns differ in length");
    for (let i = 0; i < rows; i++) check(this.explicit[i] <= 3 && this.served[i] <= 3, `status code out of range at ${i}`);
  }

  checksum(rank: number): string | null {
    return this.checksums.get(rank);
  }
  explicitStatus(rank: number): Status | null {
    return this.explicit[rank] ? STATUSES[this.explicit[rank] - 1] : null;
  }
  status(rank: number): Status | null {
    return this.served[rank] ? STATUSES[this.served[rank] - 1] : null;
  }

  get byteSize(): number {
    return this.checksums.byteSize + this.explicit.byteLength + this.served.byteLength;
  }
}
