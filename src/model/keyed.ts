/**
 * The state's collections of short-lived entries keyed by fresh ids: the connections, each compute's
 * live connections, and each project's unfinished operations and their ids. Snapshots and immer
 * drafts hold them as records, as `SimState` says; the engine's working state holds them as `Map`s
 * behind the same types, because V8 internalises every key put in an object and a fresh id goes in
 * and out of these soon after. Publishing shows a `Map` as the record of its entries. Every read and
 * write of these collections goes through the functions here, which take either kind.
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

/**
 * `entries` (an empty record if omitted) as a collection of the same kind as `sibling`: itself
 * beside a record, a new `Map` of its entries beside a `Map`.
 */
export function collectionLike<V>(
  sibling: Keyed<unknown>,
  entries: Keyed<V> = {},
): Record<string, V> {
  if (mapOf(sibling) === undefined) return entries;
  const made = workingCollection<V>();
  for (const key of idsOf(entries)) setEntry(made, key, entryOf(entries, key) as V);
  return made;
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

/** The entries, in the order they were added. */
export function valuesOf<V>(collection: Keyed<V>): Iterable<V> {
  return mapOf(collection)?.values() ?? Object.values(collection);
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
