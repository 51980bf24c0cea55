/**
 * The only source of randomness in the core: a seeded xoroshiro128+ (pure-rand) stream. Streams are
 * derived from `(seed, purpose, index)`, so a new draw for one purpose never reshuffles another.
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { hashString, mix32 } from './hash.js';

type Generator = ReturnType<typeof xoroshiro128plus>;

/** A seeded stream of random draws. Same derivation key, same draws, on every machine. */
export class RandomSource {
  readonly #gen: Generator;

  private constructor(gen: Generator) {
    this.#gen = gen;
  }

  /** A stream seeded directly by an integer (any safe integer; only its 53 bits matter). */
  static fromSeed(seed: number): RandomSource {
    return new RandomSource(xoroshiro128plus(foldSeed(seed)));
  }

  /**
   * The stream for one purpose (for example `'ids'` or `'latency'`) at one position of the run
   * (for example the sequence number of the first event of a command).
   */
  static derive(seed: number, purpose: string, index: number): RandomSource {
    const key = mix32(mix32(foldSeed(seed), hashString(purpose)), foldSeed(index));
    return new RandomSource(xoroshiro128plus(key | 0));
  }

  /** An integer in `[min, max]`, both included. */
  int(min: number, max: number): number {
    return uniformInt(this.#gen, min, max);
  }

  /** A float in `[0, 1)` with 53 random bits. */
  float(): number {
    return uniformFloat64(this.#gen);
  }

  /** A float in `[min, max)`. */
  between(min: number, max: number): number {
    return min + (max - min) * this.float();
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return p > 0 && this.float() < p;
  }

  /** An exponentially distributed value with the given mean (inter-arrival times of a Poisson process). */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.float());
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick() needs a non-empty list');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** `count` decimal digits, leading zeros kept. */
  digits(count: number): string {
    let out = '';
    for (let i = 0; i < count; i++) out += String(this.int(0, 9));
    return out;
  }

  /** A random (version 4, variant 1) UUID in lower case. */
  uuid(): string {
    const a = this.int(0, 0xffffffff);
    const b = this.int(0, 0xffff);
    const c = 0x4000 | this.int(0, 0x0fff);
    const d = 0x8000 | this.int(0, 0x3fff);
    const e1 = this.int(0, 0xffff);
    const e2 = this.int(0, 0xffffffff);
    let at = 0;
    at = hexInto(a, 8, at);
    UUID_CODES[at++] = DASH;
    at = hexInto(b, 4, at);
    UUID_CODES[at++] = DASH;
    at = hexInto(c, 4, at);
    UUID_CODES[at++] = DASH;
    at = hexInto(d, 4, at);
    UUID_CODES[at++] = DASH;
    at = hexInto(e1, 4, at);
    hexInto(e2, 8, at);
    // One flat string from char codes: a template of six parts would be a rope, which every use as
    // a record key (operation ids key their project's operations) must first flatten.
    return String.fromCharCode.apply(null, UUID_CODES as unknown as number[]);
  }
}

const HEX_CODES = [...'0123456789abcdef'].map((digit) => digit.charCodeAt(0));
const DASH = '-'.charCodeAt(0);
/** The char codes of the UUID being built (36 of them; one buffer for the module). */
const UUID_CODES = new Uint16Array(36);

/** Writes `n` as `width` lower-case hex digits into `UUID_CODES` at `at`; returns the next index. */
function hexInto(n: number, width: number, at: number): number {
  for (let i = width - 1; i >= 0; i--) {
    UUID_CODES[at + i] = HEX_CODES[n & 0xf] as number;
    n = Math.floor(n / 16);
  }
  return at + width;
}

/** Folds a safe integer (possibly above 32 bits or negative) into a 32-bit seed. */
function foldSeed(value: number): number {
  const low = value >>> 0;
  const high = Math.floor(value / 0x1_0000_0000) >>> 0;
  return mix32(low, high);
}
