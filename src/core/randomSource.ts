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
    return `${hex(a, 8)}-${hex(b, 4)}-${hex(c, 4)}-${hex(d, 4)}-${hex(e1, 4)}${hex(e2, 8)}`;
  }
}

/** `n` in lower-case hex, `width` digits at least (a function of the module, not one per call). */
function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** Folds a safe integer (possibly above 32 bits or negative) into a 32-bit seed. */
function foldSeed(value: number): number {
  const low = value >>> 0;
  const high = Math.floor(value / 0x1_0000_0000) >>> 0;
  return mix32(low, high);
}
