/**
 * Parsed, deeply frozen JSON values of a log's texts, shared by every log the process reads. The
 * same few texts recur in every simulation's log (an operation's effects, the profile in the
 * header), and a frozen value cannot be changed by any of its holders, so parsing each once per
 * process instead of once per log changes nothing a reader can see but its cost.
 */
import { deepFreeze } from '../core/deepFreeze.js';

/** Texts kept, and the longest text kept: memory stays bounded whatever the process reads. */
const MAX_ENTRIES = 4096;
const MAX_TEXT = 4096;

const values = new Map<string, unknown>();

/** `JSON.parse(text)`, deeply frozen; the same value for the same text while it stays cached. */
export function frozenJson(text: string): unknown {
  let value = values.get(text);
  if (value !== undefined) return value;
  value = deepFreeze(JSON.parse(text));
  if (text.length <= MAX_TEXT) {
    // Emptied rather than evicted one by one: a process that reads ever new texts starts over.
    if (values.size >= MAX_ENTRIES) values.clear();
    values.set(text, value);
  }
  return value;
}
