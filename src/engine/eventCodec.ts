/**
 * Encodes events into bytes for the compact log and decodes them back. An event's shape (its keys in
 * order and the kind of each value) is learned the first time it is seen and stored once; each event
 * then costs a varint or so per string or number field. Strings are interned (a varint id), UUIDs
 * packed into 16 bytes, ids like `c-1234` into an interned prefix and the number (so unique ids do
 * not fill the string table), other whole numbers kept as their distance from the event's time (a
 * time is a few bytes that way), fractions interned in a table of their own, and booleans, null and
 * undefined live in the shape alone.
 */
import { unzigzag, zigzag, type ByteReader, type ByteWriter } from './byteStream.js';
import { frozenJson } from './frozenJson.js';
import { shapeDecoder, type DecodeTables, type ShapeDecoder } from './shapeDecoder.js';
import { packUuid } from '../core/uuidWords.js';
import { UuidTexts } from './uuidTexts.js';

const STR = 0;
const U32 = 1;
/** A whole number kept as its distance from the event's time. */
const TIME = 2;
const TRUE = 3;
const FALSE = 4;
const NULL = 5;
const UNDEFINED = 6;
const JSON_VALUE = 7;
const UUID = 8;
const TYPE = 9;
const TAGGED = 10;
/** A number interned in the table of numbers. */
const NUMBER = 11;
/** A float64 kept as its eight bytes (-0, or once the table of numbers is full). */
const FLOAT = 12;
const KINDS = 13;
/** Most distinct numbers interned: past them, a number costs its eight bytes. */
const MAX_NUMBERS = 1 << 16;

/**
 * The keys (in order) and value kinds of a family of events; `at` and `seq` are kept apart. A leading
 * string `type` is part of the shape itself (`typeName`), so it costs no word per event.
 */
export interface Shape {
  readonly keys: readonly string[];
  readonly kinds: readonly number[];
  readonly typeName?: string;
}

/** The tables a codec learned (strings, numbers, shapes), or a stretch of them: what a streamed log writes before the events that use them. */
export interface CodecTables {
  readonly strings: readonly string[];
  readonly numbers: readonly number[];
  readonly shapes: readonly Shape[];
}

interface ShapeNode {
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
interface RecentShape {
  readonly keys: readonly string[];
  readonly kinds: readonly number[];
  readonly id: number;
}

/** Shapes remembered per type. */
const RECENT_SHAPES = 4;

/** Where `parseTagged` puts the parts of an id like `c-1234`. */
interface TaggedParts {
  /** The prefix's letters packed five bits each (a = 1): a number that names it without a slice. */
  prefixCode: number;
  /** Where the dash is (the prefix's length). */
  dash: number;
  number: number;
}

const MAX_SHAPES = 0xffff;

/** Turns events into words and back; one codec per log. */
export class EventCodec {
  readonly #strings: string[] = [];
  readonly #stringIds = new Map<string, number>();
  readonly #numbers: number[] = [];
  readonly #numberIds = new Map<number, number>();
  readonly #shapes: Shape[] = [];
  readonly #root: ShapeNode = { shapeId: -1, next: new Map() };
  readonly #typeRoots = new Map<string, ShapeNode>();
  readonly #tagged: TaggedParts = { prefixCode: 0, dash: 0, number: 0 };
  /** String ids of tagged-id prefixes by their packed letters. */
  readonly #prefixIds = new Map<number, number>();
  readonly #keys: string[] = [];
  readonly #kinds: number[] = [];
  readonly #uuid = new Uint32Array(4);
  /** String ids of frozen objects already encoded (frozen values cannot change, so no re-stringify). */
  readonly #frozenIds = new WeakMap<object, number>();
  /** Parsed, deeply frozen JSON values by string id, shared by every decoded event that has them. */
  readonly #parsed = new Map<number, unknown>();
  /** Compiled decoders by shape id (`null`: the shape decodes generically). */
  readonly #decoders: (ShapeDecoder | null | undefined)[] = [];
  /** What compiled decoders read through; made by the first decode (most logs are never read). */
  #tables: DecodeTables | undefined;

  /** How much of each table `takeNewTables` has handed out. */
  #taken = { strings: 0, numbers: 0, shapes: 0 };

  /** Number of distinct shapes and strings seen (for memory reports). */
  get stats(): { readonly shapes: number; readonly strings: number } {
    return { shapes: this.#shapes.length, strings: this.#strings.length };
  }

  /** Appends the values of `event` (whose time is `at`) to `out`; returns its shape id. */
  encode(event: object, at: number, out: ByteWriter): number {
    const keys = this.#keys;
    const kinds = this.#kinds;
    let fields = 0;
    let typeRoot: ShapeNode | undefined;
    for (const key in event) {
      if (key === 'at' || key === 'seq') continue;
      const value = (event as Record<string, unknown>)[key];
      keys[fields] = key;
      if (fields === 0 && key === 'type' && typeof value === 'string') {
        typeRoot = this.#typeRoot(value);
        kinds[fields++] = TYPE;
        continue;
      }
      kinds[fields++] = this.#encodeValue(value, at, out);
    }
    if (typeRoot === undefined) return this.#shapeId(undefined, fields);
    const recent = (typeRoot.recent ??= []);
    for (let i = 0; i < recent.length; i++) {
      const shape = recent[i] as RecentShape;
      if (sameShape(shape, keys, kinds, fields)) return shape.id;
    }
    const id = this.#shapeId(typeRoot, fields);
    if (recent.length === RECENT_SHAPES) recent.pop();
    recent.unshift({ keys: keys.slice(0, fields), kinds: kinds.slice(0, fields), id });
    return id;
  }

  /** The id of the shape of the `fields` keys and kinds just encoded (learned if new). */
  #shapeId(typeRoot: ShapeNode | undefined, fields: number): number {
    const keys = this.#keys;
    const kinds = this.#kinds;
    let node = typeRoot ?? this.#root;
    for (let i = typeRoot === undefined ? 0 : 1; i < fields; i++) {
      const key = keys[i] as string;
      const kind = kinds[i] as number;
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
    }
    if (node.shapeId === -1) {
      if (this.#shapes.length >= MAX_SHAPES)
        throw new RangeError('EventCodec: more than 65535 event shapes');
      node.shapeId = this.#shapes.length;
      const shapeKeys = keys.slice(0, fields);
      const shapeKinds = kinds.slice(0, fields);
      const typeName = typeRoot?.typeName;
      this.#shapes.push(
        typeName === undefined
          ? { keys: shapeKeys, kinds: shapeKinds }
          : { keys: shapeKeys, kinds: shapeKinds, typeName },
      );
    }
    return node.shapeId;
  }

  /** The entries learned since the last call (`undefined`: none), for a streamed log. */
  takeNewTables(): CodecTables | undefined {
    const taken = this.#taken;
    if (
      taken.strings === this.#strings.length &&
      taken.numbers === this.#numbers.length &&
      taken.shapes === this.#shapes.length
    )
      return undefined;
    const tables = {
      strings: this.#strings.slice(taken.strings),
      numbers: this.#numbers.slice(taken.numbers),
      shapes: this.#shapes.slice(taken.shapes),
    };
    this.#taken = {
      strings: this.#strings.length,
      numbers: this.#numbers.length,
      shapes: this.#shapes.length,
    };
    return tables;
  }

  /**
   * Learns entries another codec handed out with `takeNewTables`, in the order it did: a codec that
   * decodes a streamed log. (It cannot encode afterwards: its shape tree stays empty.)
   */
  absorbTables(tables: CodecTables): void {
    for (const text of tables.strings) this.#strings.push(text);
    for (const value of tables.numbers) this.#numbers.push(value);
    for (const shape of tables.shapes) this.#shapes.push(shape);
  }

  /** Moves `input` past the values of an event of shape `shapeId`. */
  skip(shapeId: number, input: ByteReader): void {
    const kinds = (this.#shapes[shapeId] as Shape).kinds;
    for (let i = 0; i < kinds.length; i++) {
      switch (kinds[i] as number) {
        case STR:
        case U32:
        case TIME:
        case JSON_VALUE:
        case NUMBER:
          input.skipVarint();
          break;
        case TAGGED:
          input.skipVarint();
          input.skipVarint();
          break;
        case UUID:
          input.position += 16;
          break;
        case FLOAT:
          input.position += 8;
          break;
      }
    }
  }

  #typeRoot(typeName: string): ShapeNode {
    let node = this.#typeRoots.get(typeName);
    if (node === undefined) {
      node = { shapeId: -1, next: new Map(), typeName };
      this.#typeRoots.set(typeName, node);
    }
    return node;
  }

  /** Rebuilds the event of shape `shapeId` whose values `input` is at. */
  decode(shapeId: number, input: ByteReader, at: number, seq: number): Record<string, unknown> {
    let decoder = this.#decoders[shapeId];
    if (decoder === undefined) {
      decoder = shapeDecoder(this.#shapes[shapeId] as Shape, compiledRead, DECODE_HELPERS) ?? null;
      this.#decoders[shapeId] = decoder;
    }
    if (decoder !== null) return decoder(input, at, seq, this.#tables ?? this.#newTables());
    return this.decodeGenerically(shapeId, input, at, seq);
  }

  /** The tables decoders read through, made now. */
  #newTables(): DecodeTables {
    return (this.#tables = {
      strings: this.#strings,
      numbers: this.#numbers,
      parsed: (id) => this.#parsedValue(id),
      uuids: new UuidTexts(),
    });
  }

  /** `decode` without compiled decoders: one value at a time (what a compiled decoder must equal). */
  decodeGenerically(
    shapeId: number,
    input: ByteReader,
    at: number,
    seq: number,
  ): Record<string, unknown> {
    const shape = this.#shapes[shapeId] as Shape;
    const tables = this.#tables ?? this.#newTables();
    const event: Record<string, unknown> = {};
    for (let i = 0; i < shape.keys.length; i++) {
      const key = shape.keys[i] as string;
      const kind = shape.kinds[i] as number;
      let value: unknown;
      if (kind === TYPE) value = shape.typeName;
      else {
        const read = VALUE_READS[kind];
        // A kind this codec does not know leaves its key out.
        if (read === undefined) continue;
        value = read(input, at, tables);
      }
      // Assigning `__proto__` would set the prototype instead of adding the key.
      if (key === '__proto__')
        Object.defineProperty(event, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else event[key] = value;
    }
    event['at'] = at;
    event['seq'] = seq;
    return event;
  }

  #encodeValue(value: unknown, at: number, out: ByteWriter): number {
    switch (typeof value) {
      case 'string': {
        if (value.length === 36 && packUuid(value, this.#uuid)) {
          for (const word of this.#uuid) out.word(word);
          return UUID;
        }
        // A string in the table is never a tagged id (those never enter it whole), so a repeated
        // one (a project or compute id, a state name) is found without being scanned.
        const known = this.#stringIds.get(value);
        if (known !== undefined) {
          out.varint(known);
          return STR;
        }
        const tagged = this.#tagged;
        if (parseTagged(value, tagged)) {
          let prefix = this.#prefixIds.get(tagged.prefixCode);
          if (prefix === undefined) {
            prefix = this.#intern(value.slice(0, tagged.dash));
            this.#prefixIds.set(tagged.prefixCode, prefix);
          }
          out.varint(prefix);
          out.varint(tagged.number);
          return TAGGED;
        }
        out.varint(this.#intern(value));
        return STR;
      }
      case 'number':
        return this.#encodeNumber(value, at, out);
      case 'boolean':
        return value ? TRUE : FALSE;
      case 'undefined':
        return UNDEFINED;
      case 'object': {
        if (value === null) return NULL;
        const known = this.#frozenIds.get(value);
        if (known !== undefined) {
          out.varint(known);
          return JSON_VALUE;
        }
        const id = this.#intern(JSON.stringify(value));
        if (Object.isFrozen(value)) this.#frozenIds.set(value, id);
        out.varint(id);
        return JSON_VALUE;
      }
      default:
        throw new TypeError(`EventCodec: a ${typeof value} cannot be stored in the log`);
    }
  }

  #encodeNumber(value: number, at: number, out: ByteWriter): number {
    if (Object.is(value, -0)) {
      out.float64(value);
      return FLOAT;
    }
    if (value >>> 0 === value) {
      out.varint(value);
      return U32;
    }
    if (Number.isSafeInteger(value)) {
      const distance = value - at;
      const code =
        Number.isSafeInteger(distance) && at + distance === value ? zigzag(distance) : -1;
      if (code >= 0) {
        out.varint(code);
        return TIME;
      }
    }
    let id = this.#numberIds.get(value);
    if (id === undefined && this.#numbers.length < MAX_NUMBERS) {
      id = this.#numbers.length;
      this.#numbers.push(value);
      this.#numberIds.set(value, id);
    }
    if (id === undefined) {
      out.float64(value);
      return FLOAT;
    }
    out.varint(id);
    return NUMBER;
  }

  #parsedValue(id: number): unknown {
    let value = this.#parsed.get(id);
    if (value === undefined) {
      value = frozenJson(this.#strings[id] as string);
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

/** What a compiled decoder's reads call besides the reader and the tables. */
const DECODE_HELPERS = { unzigzag };

/**
 * The expression that reads a value of `kind`, in a compiled decoder and (as `VALUE_READS`) in the
 * generic path; `undefined` for a kind it does not know. Operands are evaluated left to right, so the
 * reads keep their order in the bytes.
 */
function compiledRead(kind: number, typeName: string | undefined): string | undefined {
  switch (kind) {
    case TYPE:
      return typeName === undefined ? 'undefined' : JSON.stringify(typeName);
    case STR:
      return 'tables.strings[input.varint()]';
    case U32:
      return 'input.varint()';
    case TIME:
      return 'at + unzigzag(input.varint())';
    case NUMBER:
      return 'tables.numbers[input.varint()]';
    case FLOAT:
      return 'input.float64()';
    case TRUE:
      return 'true';
    case FALSE:
      return 'false';
    case NULL:
      return 'null';
    case UNDEFINED:
      return 'undefined';
    case JSON_VALUE:
      return 'tables.parsed(input.varint())';
    case TAGGED:
      return `tables.strings[input.varint()] + "-" + input.varint()`;
    case UUID:
      return 'tables.uuids.of(input.word(), input.word(), input.word(), input.word())';
    default:
      return undefined;
  }
}

/** One value of a kind read outside a compiled decoder. */
type ValueRead = (input: ByteReader, at: number, tables: DecodeTables) => unknown;

/**
 * The reads of the generic path, by kind, made from `compiledRead`'s expressions, so that both paths
 * read each kind by the one description (a type is its shape's name, which the path puts in itself).
 */
const VALUE_READS: readonly (ValueRead | undefined)[] = Array.from({ length: KINDS }, (_, kind) => {
  const read = kind === TYPE ? undefined : compiledRead(kind, undefined);
  if (read === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the one description of each read, compiled (shapeDecoder.ts)
  const factory = new Function(
    ...Object.keys(DECODE_HELPERS),
    `return (input, at, tables) => ${read};`,
  ) as (...helpers: unknown[]) => ValueRead;
  return factory(...Object.values(DECODE_HELPERS));
});

/**
 * Whether `text` is an id like `c-1234` (1-4 lower-case letters, a dash, a number below 2^32
 * without leading zeros); if so, its parts go into `parts`. One pass, no slices.
 */
function parseTagged(text: string, parts: TaggedParts): boolean {
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
function sameShape(
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
