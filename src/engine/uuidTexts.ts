/**
 * The text of a UUID packed into four words, remembered for the UUIDs read lately. An id recurs in
 * many events (a project in most of its events, an operation in its creation, start and end), and a
 * text built once is already flat with its hash computed, so the maps that readers key by ids (the
 * monitors) need not flatten and hash a new string for every event.
 */

import { uuidText } from '../core/uuidWords.js';

/** Slots of the cache: a UUID goes to the slot of its first word's low bits (its bits are random). */
const SLOT_BITS = 8;
const SLOT_MASK = (1 << SLOT_BITS) - 1;

/** UUID texts of a log's reader, each in the slot its first word picks (a newer one replaces it). */
export class UuidTexts {
  readonly #words = new Uint32Array(4 << SLOT_BITS);
  readonly #texts: (string | undefined)[] = [];

  /** The lower-case canonical text of the UUID whose words are `a`, `b`, `c`, `d`. */
  of(a: number, b: number, c: number, d: number): string {
    const slot = a & SLOT_MASK;
    const words = this.#words;
    const at = slot * 4;
    const known = this.#texts[slot];
    if (
      known !== undefined &&
      words[at] === a &&
      words[at + 1] === b &&
      words[at + 2] === c &&
      words[at + 3] === d
    )
      return known;
    const text = uuidText(a, b, c, d);
    words[at] = a;
    words[at + 1] = b;
    words[at + 2] = c;
    words[at + 3] = d;
    this.#texts[slot] = text;
    return text;
  }
}
