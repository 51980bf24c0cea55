/**
 * The `DecideContext` the engine hands every `decide`: one object reused for every command, whose
 * seeded random streams are derived on first use, once per purpose.
 */
import { RandomSource } from '../core/randomSource.js';
import type { DecideContext } from './decider.js';

/** The reusable DecideContext of the engine: random streams are created lazily, once per purpose. */
export class CommandContext implements DecideContext {
  now = 0;
  nextSeq = 0;
  #index = 0;
  /**
   * This command's streams and their purposes, the first `#drawn` of each. Arrays emptied by a count,
   * not a map cleared per command: a command draws for a handful of purposes, and `Map#clear`
   * allocates a new table each time (about a hundred bytes an event on a fleet).
   */
  readonly #purposes: string[] = [];
  readonly #streams: RandomSource[] = [];
  #drawn = 0;

  constructor(readonly seed: number) {}

  /** Readies the context for the next command: its time, its first `seq`, and where its streams start. */
  begin(now: number, nextSeq: number, drawIndex: number): void {
    this.now = now;
    this.nextSeq = nextSeq;
    this.#index = drawIndex;
    this.#drawn = 0;
  }

  readonly stream = (purpose: string, index: number): RandomSource =>
    RandomSource.derive(this.seed, purpose, index);

  random(purpose: string): RandomSource {
    for (let i = 0; i < this.#drawn; i++)
      if (this.#purposes[i] === purpose) return this.#streams[i] as RandomSource;
    const stream = RandomSource.derive(this.seed, purpose, this.#index);
    this.#purposes[this.#drawn] = purpose;
    this.#streams[this.#drawn++] = stream;
    return stream;
  }
}
