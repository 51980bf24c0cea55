/**
 * The state's connections (every connection by id, and each compute's live ones) and workloads. A
 * session's connection id goes in and out of them within minutes, V8 internalises every key put in
 * an object, and a region's workloads are counted at each attach, so the engine's working state
 * holds them as `Map`s behind the record types `SimState` gives them; snapshots and immer drafts
 * hold records, and publishing shows a `Map` as the record of its entries. Every read and write of
 * these collections goes through the functions here, which take either kind.
 */
import { own } from '../core/own.js';

/** One of those collections, as its type says (a `Map` in the working state). */
type Keyed<V> = Readonly<Record<string, V>>;

/** The collection as the `Map` it is in the working state, or `undefined` for a record. */
function mapOf<V>(collection: Keyed<V>): Map<string, V> | undefined {
  return collection instanceof Map ? (collection as Map<string, V>) : undefined;
}

/** A new, empty collection for the working state: a `Map` behind the record type. */
export function workingCollection<V>(): Record<string, V> {
  return new Map<string, V>() as unknown as Record<string, V>;
}

/** A new, empty collection of the same kind as `sibling`. */
export function emptyLike<V>(sibling: Keyed<unknown>): Record<string, V> {
  return mapOf(sibling) === undefined ? {} : workingCollection();
}

/** The entry under `key` (only the collection's own: a record's built-ins are not entries). */
export function entryOf<V>(collection: Keyed<V>, key: string): V | undefined {
  const map = mapOf(collection);
  return map === undefined ? own(collection, key) : map.get(key);
}

/** The keys, in the order they were added. */
export function idsOf(collection: Keyed<unknown>): Iterable<string> {
  return mapOf(collection)?.keys() ?? Object.keys(collection);
}

/** How many entries there are. */
export function countOf(collection: Keyed<unknown>): number {
  return mapOf(collection)?.size ?? Object.keys(collection).length;
}

/** Puts `value` under `key` (a new key goes last). */
export function setEntry<V>(collection: Record<string, V>, key: string, value: NoInfer<V>): void {
  const map = mapOf(collection);
  if (map === undefined) collection[key] = value;
  else map.set(key, value);
}

/** Removes the entry under `key`, if any. */
export function deleteEntry(collection: Record<string, unknown>, key: string): void {
  const map = mapOf(collection);
  if (map === undefined) delete collection[key];
  else map.delete(key);
}
