/**
 * The timeline notation as input: which clients to connect, one character per slot.
 *
 *   -     nothing in this slot
 *   c     one client connects at the start of the slot
 *   2..9  that many clients connect at the start of the slot
 *   | and spaces are ignored (group slots into hours, say)
 *
 * `'c----c----'` with a one-minute unit: a client at minute 0 and another at minute 5.
 */
import { err, ok, type Result } from '../core/result.js';

/** Connections to make at one slot. */
export interface PatternSlot {
  /** Slot number from the start of the pattern (separators do not count). */
  readonly slot: number;
  readonly connections: number;
}

/** The connections a pattern asks for, or what is wrong with it (with its column). */
export function parseConnectionPattern(pattern: string): Result<PatternSlot[], string> {
  if (typeof pattern !== 'string') return err('a connection pattern must be a string');
  const slots: PatternSlot[] = [];
  let slot = 0;
  for (let column = 0; column < pattern.length; column++) {
    const char = pattern[column] as string;
    if (char === ' ' || char === '|') continue;
    if (char === 'c') slots.push({ slot, connections: 1 });
    else if (char >= '1' && char <= '9') slots.push({ slot, connections: Number(char) });
    else if (char !== '-')
      return err(
        `connection pattern ${JSON.stringify(pattern)}: "${char}" at column ${column + 1} is not one of - c 1-9 | (space)`,
      );
    slot++;
  }
  return ok(slots);
}
