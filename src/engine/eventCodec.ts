/**
 * Encodes events into bytes for the compact log and decodes them back. An event's shape (its keys in
 * order and the kind of each value) is learned the first time it is seen and stored once; each event
 * then costs a varint or so per string or number field. Strings are interned (a varint id), UUIDs
 * packed into 16 bytes, ids like `c-1234` into an interned prefix and the number (so unique ids do
 * not fill the string table), other whole numbers kept as their distance from the event's time (a
 * time is a few bytes that way), fractions interned in a table of their own, and booleans, null and
 * undefined live in the shape alone.
 */
import { zigzag, type ByteReader, type ByteWriter } from './byteStream.js';
import {
  FALSE,
  FLOAT,
  JSON_VALUE,
  KINDS,
  NULL,
  NUMBER,
  STR,
  TAGGED,
  TIME,
  TRUE,
  TYPE,
  U32,
  UNDEFINED,
  UUID,
  type CodecTables,
  type Shape,
} from './eventShapes.js';
import { frozenJson } from './frozenJson.js';
import { shapeDecoder, type DecodeTables, type ShapeDecoder } from './shapeDecoder.js';
import {
  parseTagged,
  RECENT_SHAPES,
  sameShape,
  type RecentShape,
  type ShapeNode,
  type TaggedParts,
} from './shapeTree.js';
import { packUuid } from '../core/uuidWords.js';
import { UuidTexts } from './uuidTexts.js';
import { compiledRead, DECODE_HELPERS, VALUE_READS } from './valueReads.js';

/** Most distinct numbers interned: past them, a number costs its eight bytes. */
const MAX_NUMBERS = 1 << 16;

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
