/**
 * What the encoder finds things with: the tree of shapes learned so far and each type's recent
 * shapes, by which an event's keys and kinds lead to a shape id, and the parsing of ids like
 * `c-1234` into a prefix and a number.
 */

/** A node of the shape tree: a step per key and kind from a root; `shapeId` is the shape ending here (-1: none). */
export interface ShapeNode {
  shapeId: number;
  readonly next: Map<string, (ShapeNode | undefined)[]>;
  /** On a type's root: the type's name. */
  readonly typeName?: string;
  /**
   * On a type's root: the keys, kinds and ids of the last few shapes of that type. Events of one type
   * repeat a handful of shapes (an optional field present or not), so comparing short arrays finds
   * the shape without a map lookup per key.
   */
  recent?: RecentShape[];
}

/** A shape a type's events had lately. */
export interface RecentShape {
  readonly keys: readonly string[];
  readonly kinds: readonly number[];
  readonly id: number;
}

/** Shapes remembered per type. */
export const RECENT_SHAPES = 4;

/** Where `parseTagged` puts the parts of an id like `c-1234`. */
export interface TaggedParts {
  /** The prefix's letters packed five bits each (a = 1): a number that names it without a slice. */
  prefixCode: number;
  /** Where the dash is (the prefix's length). */
  dash: number;
  number: number;
}

/**
 * Whether `text` is an id like `c-1234` (1-4 lower-case letters, a dash, a number below 2^32
 * without leading zeros); if so, its parts go into `parts`. One pass, no slices.
 */
export function parseTagged(text: string, parts: TaggedParts): boolean {
  const length = text.length;
  if (length < 3 || length > 15) return false;
  let dash = -1;
  let prefixCode = 0;
  let number = 0;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (dash < 0) {
      if (c === 45 && i > 0 && i <= 4) dash = i;
      else if (c < 97 || c > 122) return false;
      else prefixCode = prefixCode * 32 + (c - 96);
    } else {
      if (c < 48 || c > 57 || (c === 48 && i === dash + 1 && length > dash + 2)) return false;
      number = number * 10 + (c - 48);
    }
  }
  if (dash < 0 || dash === length - 1 || number > 0xffffffff) return false;
  parts.prefixCode = prefixCode;
  parts.dash = dash;
  parts.number = number;
  return true;
}

/** True when a recent shape of a type has the `fields` keys and kinds just encoded. */
export function sameShape(
  last: RecentShape,
  keys: readonly string[],
  kinds: readonly number[],
  fields: number,
): boolean {
  if (last.keys.length !== fields) return false;
  for (let i = 1; i < fields; i++)
    if (last.keys[i] !== keys[i] || last.kinds[i] !== kinds[i]) return false;
  return true;
}
