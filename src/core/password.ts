/**
 * Role passwords as the service issues them: `npg_` and 12 letters or digits, drawn from a seeded
 * stream (same seed, same passwords).
 */
import type { RandomSource } from './randomSource.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Draws a new role password from `random`. */
export function newPassword(random: RandomSource): string {
  let out = 'npg_';
  for (let i = 0; i < 12; i++) out += ALPHABET.charAt(random.int(0, ALPHABET.length - 1));
  return out;
}
