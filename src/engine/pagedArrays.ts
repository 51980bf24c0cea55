/**
 * Growable typed arrays made of fixed-size pages, so a log of tens of millions of entries never needs
 * one huge contiguous allocation. The first page starts small and doubles up to the page size (a
 * property test's log of a few hundred events should not zero 128 KiB per simulation); from the
 * second page on, growing never copies.
 */

/** Entries a page holds: 64 KiB of bytes, 32 KiB of float64s (page size bounds the waste of a small log). */
const BYTE_PAGE_BITS = 16;
const FLOAT_PAGE_BITS = 12;
/** Entries the first page starts with: 1 KiB of bytes, 64 float64s. */
const BYTE_FIRST_BITS = 10;
const FLOAT_FIRST_BITS = 6;

type TypedArray = Float64Array | Uint8Array;

/** A paged array of one typed-array kind; reads and writes by index, appends at the end. */
class Paged<A extends TypedArray> {
  readonly #pages: A[] = [];
  readonly #bits: number;
  readonly #mask: number;
  readonly #firstSize: number;
  #length = 0;
  /** Entries the pages can hold: a push past it grows the first page or adds one. */
  #capacity = 0;

  constructor(
    readonly make: (size: number) => A,
    bits: number,
    firstBits: number,
  ) {
    this.#bits = bits;
    this.#mask = (1 << bits) - 1;
    this.#firstSize = 1 << Math.min(firstBits, bits);
  }

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    const index = this.#length++;
    if (index === this.#capacity) this.#grow();
    (this.#pages[index >>> this.#bits] as A)[index & this.#mask] = value;
  }

  /** Appends `count` entries of `source` from index `from`. */
  pushAll(source: A, from: number, count: number): void {
    const index = this.#length;
    const offset = index & this.#mask;
    const page = this.#pages[index >>> this.#bits];
    if (page === undefined || offset + count > page.length) {
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

  /** Room for one more entry: the first page doubled (up to a page), or a new page. */
  #grow(): void {
    const pages = this.#pages;
    const first = pages[0];
    const pageSize = this.#mask + 1;
    if (first === undefined) pages.push(this.make(this.#firstSize));
    else if (first.length < pageSize) {
      const grown = this.make(Math.min(first.length * 2, pageSize));
      grown.set(first);
      pages[0] = grown;
    } else pages.push(this.make(pageSize));
    // Only a lone first page is ever short, so every page but the last is full.
    this.#capacity = (pages.length - 1) * pageSize + (pages[pages.length - 1] as A).length;
  }
}

/** Paged Float64Array. */
export class PagedFloat64 extends Paged<Float64Array> {
  constructor() {
    super((size) => new Float64Array(size), FLOAT_PAGE_BITS, FLOAT_FIRST_BITS);
  }
}

/** Paged Uint8Array: the byte stream of the event log. */
export class PagedUint8 extends Paged<Uint8Array> {
  constructor() {
    super((size) => new Uint8Array(size), BYTE_PAGE_BITS, BYTE_FIRST_BITS);
  }
}
