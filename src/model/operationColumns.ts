/**
 * One generation of archived operation rows: each field of an ended operation in a typed-array
 * column (numbers as they are, strings as interned codes, the id as four words), its key order as a
 * shape code, and whatever fits no column kept aside. A row is read back as the very record it was.
 */
import type { StringCodes } from '../core/stringCodes.js';
import { packUuid, uuidText } from '../core/uuidWords.js';
import type { OperationState } from './state.js';

/** What an ended operation holds in place of the effects it no longer carries out. */
export const ENDED_EFFECTS: OperationState['effects'] = Object.freeze({
  running: Object.freeze([]),
  finished: Object.freeze([]),
});

/** Fields kept as numbers. */
const NUMBER_KEYS = [
  'createdAt',
  'updatedAt',
  'sortKey',
  'durationMs',
  'startedAt',
  'totalDurationMs',
  'failuresCount',
] as const;
/** Fields kept as codes of strings. */
const STRING_KEYS = [
  'projectId',
  'branchId',
  'endpointId',
  'action',
  'status',
  'latency',
  'error',
] as const;
const NUMBERS = NUMBER_KEYS.length;
const STRINGS = STRING_KEYS.length;
const NUMBER_COLUMN = new Map<string, number>(NUMBER_KEYS.map((key, i) => [key, i]));
const STRING_COLUMN = new Map<string, number>(STRING_KEYS.map((key, i) => [key, i]));
const UPDATED_AT = NUMBER_COLUMN.get('updatedAt') as number;
const SORT_KEY = NUMBER_COLUMN.get('sortKey') as number;

/** Where a field goes: the id, the effects, a number column, a string column, or aside. */
const ID = 0;
const EFFECTS = 1;
const NUMBER = 2;
const STRING = 3;
const ASIDE = 4;

/**
 * A key order of operation records, as a trie node: the shape of the keys up to `key`, and where
 * that key's value goes (worked out once per node, not per row).
 */
interface ShapeNode {
  readonly key: string;
  readonly place: number;
  readonly column: number;
  readonly next: Map<string, ShapeNode>;
  /** The child followed last: records of one shape follow one path, found without a lookup. */
  recent: ShapeNode | undefined;
  /** The nodes from the first key to this one: the fields of the shape, in order. */
  readonly path: readonly ShapeNode[];
  id: number;
}

function shapeNode(key: string, parent: readonly ShapeNode[]): ShapeNode {
  const number = NUMBER_COLUMN.get(key);
  const string = STRING_COLUMN.get(key);
  const [place, column] =
    key === 'id'
      ? [ID, 0]
      : key === 'effects'
        ? [EFFECTS, 0]
        : number !== undefined
          ? [NUMBER, number]
          : string !== undefined
            ? [STRING, string]
            : [ASIDE, 0];
  const path = [...parent];
  const node: ShapeNode = { key, place, column, next: new Map(), recent: undefined, path, id: -1 };
  path.push(node);
  return node;
}

/** The tables every generation shares: string codes and key orders only ever grow. */
export class ColumnTables {
  readonly #root: ShapeNode = {
    key: '',
    place: ASIDE,
    column: 0,
    next: new Map(),
    recent: undefined,
    path: [],
    id: -1,
  };
  readonly #shapes: (readonly ShapeNode[])[] = [];

  constructor(readonly codes: StringCodes) {}

  /** The trie node of `key` after `node` (the root: `undefined`). */
  next(node: ShapeNode | undefined, key: string): ShapeNode {
    const from = node ?? this.#root;
    const recent = from.recent;
    if (recent !== undefined && recent.key === key) return recent;
    let next = from.next.get(key);
    if (next === undefined) {
      next = shapeNode(key, from.path);
      from.next.set(key, next);
    }
    from.recent = next;
    return next;
  }

  /** The code of the key order a trie node stands for. */
  shapeId(node: ShapeNode | undefined): number {
    const at = node ?? this.#root;
    if (at.id < 0) {
      at.id = this.#shapes.length;
      this.#shapes.push(at.path);
    }
    return at.id;
  }

  /** The fields of a key order, in order, each with where its value goes. */
  fields(shape: number): readonly ShapeNode[] {
    return this.#shapes[shape] as readonly ShapeNode[];
  }
}

/** Rows a page holds (the first page grows to it; later ones are made whole). */
const PAGE_BITS = 13;
const PAGE_ROWS = 1 << PAGE_BITS;
const ROW_MASK = PAGE_ROWS - 1;

/** The columns of up to `PAGE_ROWS` rows: a run adds pages, and never copies a full one. */
interface Page {
  words: Uint32Array;
  numbers: Float64Array;
  strings: Int32Array;
  shapes: Uint16Array;
}

function page(rows: number): Page {
  return {
    words: new Uint32Array(rows * 4),
    numbers: new Float64Array(rows * NUMBERS),
    strings: new Int32Array(rows * STRINGS),
    shapes: new Uint16Array(rows),
  };
}

/** Rows of ended operations, appended and never changed. */
export class OperationColumns {
  rows = 0;
  readonly #pages: Page[] = [];
  /** Rows the first page has room for, while it is still growing. */
  #firstCapacity = 0;
  /** Ids that are not canonical UUIDs, by row. */
  readonly #texts = new Map<number, string>();
  /** Fields kept as they were: any not in the columns (`nextIds`, say), by row. */
  readonly #extras = new Map<number, Record<string, unknown>>();
  readonly #word = new Uint32Array(4);

  constructor(readonly tables: ColumnTables) {}

  /** Appends a row for `operation`; returns its number. */
  add(operation: OperationState): number {
    const row = this.#nextRow();
    const { words, numbers, strings, shapes } = this.#pageOf(row);
    const at = row & ROW_MASK;
    const codes = this.tables.codes;
    let shape: ShapeNode | undefined;
    let extra: Record<string, unknown> | undefined;
    for (const key in operation) {
      const value = (operation as unknown as Record<string, unknown>)[key];
      // A field cleared in the working state (clearField.ts) is absent, as in a snapshot.
      if (value === undefined) continue;
      shape = this.tables.next(shape, key);
      const place = shape.place;
      if (place === NUMBER && typeof value === 'number')
        numbers[at * NUMBERS + shape.column] = value;
      else if (place === STRING && typeof value === 'string')
        strings[at * STRINGS + shape.column] = codes.codeOf(value);
      else if (place === ID && typeof value === 'string') {
        if (packUuid(value, this.#word)) words.set(this.#word, at * 4);
        else this.#texts.set(row, value);
      } else if (place !== EFFECTS || value !== ENDED_EFFECTS) (extra ??= {})[key] = value;
    }
    if (extra !== undefined) this.#extras.set(row, extra);
    shapes[at] = this.tables.shapeId(shape);
    return row;
  }

  /** Appends a copy of a row of another generation; returns its number here. */
  copy(from: OperationColumns, row: number): number {
    const to = this.#nextRow();
    const source = from.#pageOf(row);
    const target = this.#pageOf(to);
    const a = row & ROW_MASK;
    const b = to & ROW_MASK;
    target.words.set(source.words.subarray(a * 4, a * 4 + 4), b * 4);
    target.numbers.set(source.numbers.subarray(a * NUMBERS, (a + 1) * NUMBERS), b * NUMBERS);
    target.strings.set(source.strings.subarray(a * STRINGS, (a + 1) * STRINGS), b * STRINGS);
    target.shapes[b] = source.shapes[a] as number;
    const text = from.#texts.get(row);
    if (text !== undefined) this.#texts.set(to, text);
    const extra = from.#extras.get(row);
    if (extra !== undefined) this.#extras.set(to, extra);
    return to;
  }

  /** The record a row was made from. */
  operation(row: number): OperationState {
    const out: Record<string, unknown> = {};
    const extra = this.#extras.get(row);
    const codes = this.tables.codes;
    const { numbers, strings, shapes } = this.#pageOf(row);
    const at = row & ROW_MASK;
    for (const { key, place, column } of this.tables.fields(shapes[at] as number)) {
      if (extra !== undefined && key in extra) out[key] = extra[key];
      else if (place === ID) out[key] = this.idOf(row);
      else if (place === EFFECTS) out[key] = ENDED_EFFECTS;
      else if (place === NUMBER) out[key] = numbers[at * NUMBERS + column];
      else out[key] = codes.text(strings[at * STRINGS + column] as number);
    }
    return Object.freeze(out) as unknown as OperationState;
  }

  /** A row's id. */
  idOf(row: number): string {
    const text = this.#texts.get(row);
    if (text !== undefined) return text;
    const w = this.#pageOf(row).words;
    const at = (row & ROW_MASK) * 4;
    return uuidText(w[at] as number, w[at + 1] as number, w[at + 2] as number, w[at + 3] as number);
  }

  /** Whether a row's id is the UUID packed in `word`. */
  hasId(row: number, word: Uint32Array): boolean {
    const w = this.#pageOf(row).words;
    const at = (row & ROW_MASK) * 4;
    return (
      !this.#texts.has(row) &&
      w[at] === word[0] &&
      w[at + 1] === word[1] &&
      w[at + 2] === word[2] &&
      w[at + 3] === word[3]
    );
  }

  /** The first word of a row's packed id (a hash: its bits are random), or -1 for a text id. */
  hashOf(row: number): number {
    if (this.#texts.has(row)) return -1;
    return this.#pageOf(row).words[(row & ROW_MASK) * 4] as number;
  }

  /** A row's `updatedAt`. */
  updatedAt(row: number): number {
    return this.#pageOf(row).numbers[(row & ROW_MASK) * NUMBERS + UPDATED_AT] as number;
  }

  /** A row's `sortKey`. */
  sortKey(row: number): number {
    return this.#pageOf(row).numbers[(row & ROW_MASK) * NUMBERS + SORT_KEY] as number;
  }

  #pageOf(row: number): Page {
    return this.#pages[row >>> PAGE_BITS] as Page;
  }

  #nextRow(): number {
    const row = this.rows++;
    if ((row & ROW_MASK) === 0 && row > 0) this.#pages.push(page(PAGE_ROWS));
    else if (row === this.#firstCapacity) {
      const capacity = Math.max(32, this.#firstCapacity * 2);
      const first = page(capacity);
      const old = this.#pages[0];
      if (old !== undefined) {
        first.words.set(old.words);
        first.numbers.set(old.numbers);
        first.strings.set(old.strings);
        first.shapes.set(old.shapes);
      }
      this.#pages[0] = first;
      this.#firstCapacity = capacity;
    }
    return row;
  }
}
