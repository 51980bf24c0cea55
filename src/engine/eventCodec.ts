/**
 * Encodes events into 32-bit words for the compact log and decodes them back. An event's shape (its
 * keys in order and the kind of each value) is learned the first time it is seen and stored once;
 * each event then costs one 32-bit slot per string or number field. Strings are interned, UUIDs
 * packed into four words, ids like `c-1234` into two (an interned prefix and the number, so unique ids
 * do not fill the string table), numbers that do not fit 32 bits kept in a float64 side table, and
 * booleans, null and undefined live in the shape alone.
 */
import { deepFreeze } from '../core/deepFreeze.js';
import type { PagedUint32 } from './pagedArrays.js';
import { PagedFloat64 } from './pagedArrays.js';

const STR = 0;
const U32 = 1;
const WIDE = 2;
const TRUE = 3;
const FALSE = 4;
const NULL = 5;
const UNDEFINED = 6;
const JSON_VALUE = 7;
const UUID = 8;
const TYPE = 9;
const TAGGED = 10;
const KINDS = 11;
/** Value words each kind takes (the others live in the shape alone). */
const WORDS: readonly number[] = [1, 1, 1, 0, 0, 0, 0, 1, 4, 0, 2];

/**
 * The keys (in order) and value kinds of a family of events; `at` and `seq` are kept apart. A leading
 * string `type` is part of the shape itself (`typeName`), so it costs no word per event.
 */
interface Shape {
  readonly keys: readonly string[];
  readonly kinds: readonly number[];
  readonly typeName?: string;
}

interface ShapeNode {
  shapeId: number;
  readonly next: Map<string, (ShapeNode | undefined)[]>;
}

const MAX_SHAPES = 0xffff;
const HEX = '0123456789abcdef';

/** Turns events into words and back; one codec per log. */
export class EventCodec {
  readonly #strings: string[] = [];
  readonly #stringIds = new Map<string, number>();
  readonly #wides = new PagedFloat64();
  readonly #shapes: Shape[] = [];
  readonly #root: ShapeNode = { shapeId: -1, next: new Map() };
  readonly #typeRoots = new Map<string, ShapeNode>();
  readonly #keys: string[] = [];
  readonly #kinds: number[] = [];
  readonly #uuid = new Uint32Array(4);
  /** Value words per shape. */
  readonly #words: number[] = [];
  /** String ids of frozen objects already encoded (frozen values cannot change, so no re-stringify). */
  readonly #frozenIds = new WeakMap<object, number>();
  /** Parsed, deeply frozen JSON values by string id, shared by every decoded event that has them. */
  readonly #parsed = new Map<number, unknown>();

  /** Number of distinct shapes and strings seen (for memory reports). */
  get stats(): { readonly shapes: number; readonly strings: number } {
    return { shapes: this.#shapes.length, strings: this.#strings.length };
  }

  /** Appends the value words of `event` to `values`; returns its shape id. */
  encode(event: object, values: PagedUint32): number {
    let node = this.#root;
    let fields = 0;
    let first = true;
    let typeName: string | undefined;
    for (const key in event) {
      if (key === 'at' || key === 'seq') continue;
      const value = (event as Record<string, unknown>)[key];
      if (first && key === 'type' && typeof value === 'string') {
        first = false;
        typeName = value;
        node = this.#typeRoot(value);
        this.#keys[fields] = key;
        this.#kinds[fields] = TYPE;
        fields++;
        continue;
      }
      first = false;
      const kind = this.#encodeValue(value, values);
      let byKind = node.next.get(key);
      if (byKind === undefined) {
        byKind = new Array<ShapeNode | undefined>(KINDS);
        node.next.set(key, byKind);
      }
      let child = byKind[kind];
      if (child === undefined) {
        child = { shapeId: -1, next: new Map() };
        byKind[kind] = child;
      }
      node = child;
      this.#keys[fields] = key;
      this.#kinds[fields] = kind;
      fields++;
    }
    if (node.shapeId === -1) {
      if (this.#shapes.length >= MAX_SHAPES)
        throw new RangeError('EventCodec: more than 65535 event shapes');
      node.shapeId = this.#shapes.length;
      const keys = this.#keys.slice(0, fields);
      const kinds = this.#kinds.slice(0, fields);
      this.#shapes.push(typeName === undefined ? { keys, kinds } : { keys, kinds, typeName });
      this.#words.push(kinds.reduce((sum, kind) => sum + (WORDS[kind] ?? 0), 0));
    }
    return node.shapeId;
  }

  /** Number of value words an event of shape `shapeId` takes. */
  wordsOf(shapeId: number): number {
    return this.#words[shapeId] as number;
  }

  #typeRoot(typeName: string): ShapeNode {
    let node = this.#typeRoots.get(typeName);
    if (node === undefined) {
      node = { shapeId: -1, next: new Map() };
      this.#typeRoots.set(typeName, node);
    }
    return node;
  }

  /** Rebuilds the event of shape `shapeId` whose words start at `offset`. */
  decode(
    shapeId: number,
    values: PagedUint32,
    offset: number,
    at: number,
    seq: number,
  ): Record<string, unknown> {
    const shape = this.#shapes[shapeId] as Shape;
    const event: Record<string, unknown> = {};
    let slot = offset;
    for (let i = 0; i < shape.keys.length; i++) {
      const key = shape.keys[i] as string;
      switch (shape.kinds[i]) {
        case TYPE:
          event[key] = shape.typeName;
          break;
        case STR:
          event[key] = this.#strings[values.get(slot++)];
          break;
        case U32:
          event[key] = values.get(slot++);
          break;
        case WIDE:
          event[key] = this.#wides.get(values.get(slot++));
          break;
        case TRUE:
          event[key] = true;
          break;
        case FALSE:
          event[key] = false;
          break;
        case NULL:
          event[key] = null;
          break;
        case UNDEFINED:
          event[key] = undefined;
          break;
        case JSON_VALUE:
          event[key] = this.#parsedValue(values.get(slot++));
          break;
        case TAGGED:
          event[key] = `${this.#strings[values.get(slot)] as string}-${values.get(slot + 1)}`;
          slot += 2;
          break;
        case UUID:
          event[key] = uuidOf(
            values.get(slot),
            values.get(slot + 1),
            values.get(slot + 2),
            values.get(slot + 3),
          );
          slot += 4;
          break;
      }
    }
    event['at'] = at;
    event['seq'] = seq;
    return event;
  }

  #encodeValue(value: unknown, values: PagedUint32): number {
    switch (typeof value) {
      case 'string':
        if (packUuid(value, this.#uuid)) {
          for (const word of this.#uuid) values.push(word);
          return UUID;
        }
        {
          const dash = taggedDash(value);
          if (dash > 0) {
            values.push(this.#intern(value.slice(0, dash)));
            values.push(Number(value.slice(dash + 1)));
            return TAGGED;
          }
        }
        values.push(this.#intern(value));
        return STR;
      case 'number':
        if (value >>> 0 === value && !Object.is(value, -0)) {
          values.push(value);
          return U32;
        }
        values.push(this.#wides.length);
        this.#wides.push(value);
        return WIDE;
      case 'boolean':
        return value ? TRUE : FALSE;
      case 'undefined':
        return UNDEFINED;
      case 'object': {
        if (value === null) return NULL;
        const known = this.#frozenIds.get(value);
        if (known !== undefined) {
          values.push(known);
          return JSON_VALUE;
        }
        const id = this.#intern(JSON.stringify(value));
        if (Object.isFrozen(value)) this.#frozenIds.set(value, id);
        values.push(id);
        return JSON_VALUE;
      }
      default:
        throw new TypeError(`EventCodec: a ${typeof value} cannot be stored in the log`);
    }
  }

  #parsedValue(id: number): unknown {
    let value = this.#parsed.get(id);
    if (value === undefined) {
      value = deepFreeze(JSON.parse(this.#strings[id] as string));
      this.#parsed.set(id, value);
    }
    return value;
  }

  #intern(text: string): number {
    let id = this.#stringIds.get(text);
    if (id === undefined) {
      id = this.#strings.length;
      this.#strings.push(text);
      this.#stringIds.set(text, id);
    }
    return id;
  }
}

/**
 * The position of the dash in an id like `c-1234` (1-4 lower-case letters, a dash, a number below
 * 2^32 without leading zeros), or -1 for any other string.
 */
function taggedDash(text: string): number {
  const length = text.length;
  if (length < 3 || length > 15) return -1;
  let dash = -1;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (dash < 0) {
      if (c === 45 && i > 0 && i <= 4) dash = i;
      else if (c < 97 || c > 122) return -1;
    } else if (c < 48 || c > 57 || (c === 48 && i === dash + 1 && length > dash + 2)) return -1;
  }
  if (dash < 0 || dash === length - 1) return -1;
  const n = Number(text.slice(dash + 1));
  return n <= 0xffffffff ? dash : -1;
}

/** Packs a lower-case canonical UUID into four words; false for any other string. */
function packUuid(text: string, out: Uint32Array): boolean {
  if (text.length !== 36) return false;
  let word = 0;
  let nibbles = 0;
  let index = 0;
  for (let i = 0; i < 36; i++) {
    const c = text.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
      continue;
    }
    let nibble: number;
    if (c >= 48 && c <= 57) nibble = c - 48;
    else if (c >= 97 && c <= 102) nibble = c - 87;
    else return false;
    word = word * 16 + nibble;
    if (++nibbles === 8) {
      out[index++] = word;
      word = 0;
      nibbles = 0;
    }
  }
  return true;
}

function uuidOf(a: number, b: number, c: number, d: number): string {
  const hex = hex8(a) + hex8(b) + hex8(c) + hex8(d);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function hex8(word: number): string {
  let out = '';
  for (let shift = 28; shift >= 0; shift -= 4) out += HEX[(word >>> shift) & 15];
  return out;
}
