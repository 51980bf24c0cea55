/**
 * Whether a record has no entries, without listing its keys: `Object.keys(r).length === 0` builds an
 * array of every key only to count them, on paths that run once per event.
 */

/** True when `record` has no enumerable entries. */
export function isEmpty(record: object): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return false;
  return true;
}
