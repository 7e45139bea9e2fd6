// @module StatusColumn: per-object checksum, explicit status and served status (docs/api.md#status).
import type { Block, Blocks } from "./blocks.ts";
import { check } from "./errors.ts";
import { type ObjectRecord, type Status, statusCode, statusFromCode } from "./model.ts";
import { encodeNullableStringList, NullableStringList } from "./string-list.ts";

/** Five blocks: checksums (NullableStringList); u8 explicit status; u8 served status (0 null, 1 Added, 2 Modified, 3 Unchanged). */
export function encodeStatusColumn(objects: readonly ObjectRecord[]): Block[] {
  return [
    ...encodeNullableStringList(objects.map((o) => o.checksum)),
    Uint8Array.from(objects, (o) => statusCode(o.explicitStatus)),
    Uint8Array.from(objects, (o) => statusCode(o.status)),
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
    check(
      this.checksums.length === rows && this.explicit.length === rows && this.served.length === rows,
      "status columns differ in length",
    );
    for (let i = 0; i < rows; i++)
      if (this.explicit[i] > 3 || this.served[i] > 3) check(false, `status code out of range at ${i}`);
  }

  checksum(rank: number): string | null {
    return this.checksums.get(rank);
  }
  explicitStatus(rank: number): Status | null {
    return statusFromCode(this.explicit[rank]);
  }
  status(rank: number): Status | null {
    return statusFromCode(this.served[rank]);
  }

  get byteSize(): number {
    return this.checksums.byteSize + this.explicit.byteLength + this.served.byteLength;
  }
}
