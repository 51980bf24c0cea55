/**
 * Growable typed arrays made of fixed-size pages, so a log of tens of millions of entries never copies
 * itself to grow and never needs one huge contiguous allocation.
 */

/** Entries a page holds: 64 KiB of bytes, 32 KiB of float64s (page size bounds the waste of a small log). */
const BYTE_PAGE_BITS = 16;
const FLOAT_PAGE_BITS = 12;

type TypedArray = Float64Array | Uint8Array;

/** A paged array of one typed-array kind; reads and writes by index, appends at the end. */
class Paged<A extends TypedArray> {
  readonly #pages: A[] = [];
  readonly #bits: number;
  readonly #mask: number;
  #length = 0;

  constructor(
    readonly make: (size: number) => A,
    bits: number,
  ) {
    this.#bits = bits;
    this.#mask = (1 << bits) - 1;
  }

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    const index = this.#length++;
    const page = index >>> this.#bits;
    if (page === this.#pages.length) this.#pages.push(this.make(this.#mask + 1));
    (this.#pages[page] as A)[index & this.#mask] = value;
  }

  /** Appends `count` entries of `source` from index `from`. */
  pushAll(source: A, from: number, count: number): void {
    const index = this.#length;
    const offset = index & this.#mask;
    const page = this.#pages[index >>> this.#bits];
    if (page === undefined || offset + count > this.#mask + 1) {
      for (let i = 0; i < count; i++) this.push(source[from + i] as number);
      return;
    }
    for (let i = 0; i < count; i++) page[offset + i] = source[from + i] as number;
    this.#length = index + count;
  }

  get(index: number): number {
    return (this.#pages[index >>> this.#bits] as A)[index & this.#mask] as number;
  }

  /** Bytes held by the pages. */
  get bytes(): number {
    return this.#pages.reduce((sum, page) => sum + page.byteLength, 0);
  }
}

/** Paged Float64Array. */
export class PagedFloat64 extends Paged<Float64Array> {
  constructor() {
    super((size) => new Float64Array(size), FLOAT_PAGE_BITS);
  }
}

/** Paged Uint8Array: the byte stream of the event log. */
export class PagedUint8 extends Paged<Uint8Array> {
  constructor() {
    super((size) => new Uint8Array(size), BYTE_PAGE_BITS);
  }
}
