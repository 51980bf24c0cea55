/**
 * Growable typed arrays made of fixed-size pages, so a log of tens of millions of entries never copies
 * itself to grow and never needs one huge contiguous allocation.
 */

const PAGE_BITS = 16;
const PAGE_SIZE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_SIZE - 1;

type TypedArray = Float64Array | Uint32Array | Uint16Array;

/** A paged array of one typed-array kind; reads and writes by index, appends at the end. */
class Paged<A extends TypedArray> {
  readonly #pages: A[] = [];
  #length = 0;

  constructor(readonly make: (size: number) => A) {}

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    const index = this.#length++;
    const page = index >>> PAGE_BITS;
    if (page === this.#pages.length) this.#pages.push(this.make(PAGE_SIZE));
    (this.#pages[page] as A)[index & PAGE_MASK] = value;
  }

  get(index: number): number {
    return (this.#pages[index >>> PAGE_BITS] as A)[index & PAGE_MASK] as number;
  }

  /** Bytes held by the pages. */
  get bytes(): number {
    return this.#pages.reduce((sum, page) => sum + page.byteLength, 0);
  }
}

/** Paged Float64Array. */
export class PagedFloat64 extends Paged<Float64Array> {
  constructor() {
    super((size) => new Float64Array(size));
  }
}

/** Paged Uint32Array. */
export class PagedUint32 extends Paged<Uint32Array> {
  constructor() {
    super((size) => new Uint32Array(size));
  }
}

/** Paged Uint16Array. */
export class PagedUint16 extends Paged<Uint16Array> {
  constructor() {
    super((size) => new Uint16Array(size));
  }
}
