/**
 * Identifier formats of the public API, drawn from a seeded stream: projects
 * `<adjective>-<noun>-<6 digits>`, branches `br-…`, computes `ep-…`, operations UUID v4.
 */
import { ADJECTIVES, NOUNS } from './words.js';
import type { RandomSource } from './randomSource.js';

/** Pattern every object id matches (operation ids are UUIDs, which match it too). */
export const ID_PATTERN = /^[a-z0-9-]{1,60}$/;

function wordsAndDigits(random: RandomSource): string {
  return `${random.pick(ADJECTIVES)}-${random.pick(NOUNS)}-${random.digits(6)}`;
}

/** Id generators by object kind. */
export const newId = {
  project: (random: RandomSource): string => wordsAndDigits(random),
  branch: (random: RandomSource): string => `br-${wordsAndDigits(random)}`,
  endpoint: (random: RandomSource): string => `ep-${wordsAndDigits(random)}`,
  operation: (random: RandomSource): string => random.uuid(),
} as const;

/**
 * Draws ids until one is not taken. Collisions are rare (about 9 × 10⁹ names per kind); the bound
 * only turns an impossible loop into a clear error.
 */
export function drawUniqueId(
  draw: (random: RandomSource) => string,
  random: RandomSource,
  taken: (id: string) => boolean,
): string {
  for (let attempt = 0; attempt < 1_000; attempt++) {
    const id = draw(random);
    if (!taken(id)) return id;
  }
  throw new Error('drawUniqueId: 1000 collisions in a row; the id space is exhausted');
}
