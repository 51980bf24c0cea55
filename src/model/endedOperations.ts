/**
 * The archive of ended operations: a fleet's month ends millions of them, and nothing but readers of
 * the API and of snapshots ever looks at one again, so they leave the working state's records for
 * columns of typed arrays (about 90 bytes a row, no object for the collector to trace). A row is
 * built back into the very record it was (same fields, same order) when someone reads it.
 */
import { StringCodes } from '../core/stringCodes.js';
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
const NUMBER_COLUMN = new Map<string, number>(NUMBER_KEYS.map((key, i) => [key, i]));
const STRING_COLUMN = new Map<string, number>(STRING_KEYS.map((key, i) => [key, i]));
const UPDATED_AT = NUMBER_COLUMN.get('updatedAt') as number;
const SORT_KEY = NUMBER_COLUMN.get('sortKey') as number;

/** The rows of one project, in the order its operations ended; those before `start` are pruned. */
class ProjectRows {
  rows = new Int32Array(16);
  length = 0;
  start = 0;

  push(row: number): number {
    if (this.length === this.rows.length) {
      const grown = new Int32Array(this.rows.length * 2);
      grown.set(this.rows);
      this.rows = grown;
    }
    this.rows[this.length] = row;
    return this.length++;
  }
}

/**
 * The rows a project had at one moment: what a snapshot shows. Later additions and prunings never
 * change it (rows are appended past its end and pruning only moves the project's start).
 */
export interface EndedWindow {
  readonly list: ProjectRows;
  readonly start: number;
  readonly end: number;
}

/** A key order of operation records, as a trie node: the shape of the keys seen so far. */
interface ShapeNode {
  readonly next: Map<string, ShapeNode>;
  readonly keys: readonly string[];
  id: number;
}

/** Ended operations in columns, each findable by id within its project's current rows. */
export class EndedOperations {
  #rows = 0;
  #capacity = 0;
  #words = new Uint32Array(0);
  #numbers = new Float64Array(0);
  #strings = new Int32Array(0);
  #shapes = new Uint16Array(0);
  /** Position of each row in its project's list (to tell whether a found row is still kept). */
  #positions = new Int32Array(0);
  /** Row + 1 per slot of an open-addressing table keyed by the id's first word (0: empty). */
  #slots = new Int32Array(1024);
  readonly #codes = new StringCodes();
  readonly #byProject = new Map<string, ProjectRows>();
  /** Ids that are not canonical UUIDs, by row, and their rows. */
  readonly #texts = new Map<number, string>();
  readonly #textRows = new Map<string, number>();
  /** Fields kept as they were: any not in the columns (`nextIds`, say), by row. */
  readonly #extras = new Map<number, Record<string, unknown>>();
  readonly #shapeRoot: ShapeNode = { next: new Map(), keys: [], id: -1 };
  readonly #shapeKeys: (readonly string[])[] = [];
  readonly #word = new Uint32Array(4);
  /** The operation archived last, as it was: the one the timers of its end look up at once. */
  #last: OperationState | undefined;

  /** Archives an ended operation's frozen record (of project `operation.projectId`). */
  add(operation: OperationState): void {
    this.#last = operation;
    const row = this.#rows++;
    if (row === this.#capacity) this.#grow();
    let shape = this.#shapeRoot;
    let extra: Record<string, unknown> | undefined;
    this.#strings.fill(-1, row * STRING_KEYS.length, (row + 1) * STRING_KEYS.length);
    for (const key in operation) {
      shape = this.#nextShape(shape, key);
      const value = (operation as unknown as Record<string, unknown>)[key];
      if (key === 'id' && typeof value === 'string') this.#keepId(row, value);
      else if (key === 'effects' && value === ENDED_EFFECTS) continue;
      else if (!this.#keepField(row, key, value)) (extra ??= {})[key] = value;
    }
    if (extra !== undefined) this.#extras.set(row, extra);
    this.#shapes[row] = this.#shapeId(shape);
    let list = this.#byProject.get(operation.projectId);
    if (list === undefined) this.#byProject.set(operation.projectId, (list = new ProjectRows()));
    this.#positions[row] = list.push(row);
  }

  /** The ended operation `id` of project `projectId`, unless it was pruned. */
  find(projectId: string, id: string): OperationState | undefined {
    const last = this.#last;
    if (last !== undefined && last.id === id && last.projectId === projectId)
      return this.#kept(this.#rows - 1, projectId) ? last : undefined;
    const row = this.#rowOf(id);
    return row !== undefined && this.#kept(row, projectId) ? this.operation(row) : undefined;
  }

  /** Whether a row is among its project's current rows (not pruned, not forgotten). */
  #kept(row: number, projectId: string): boolean {
    const list = this.#byProject.get(projectId);
    const position = this.#positions[row] as number;
    if (list === undefined || position < list.start || position >= list.length) return false;
    return list.rows[position] === row;
  }

  /** The project's rows as they stand now, or `undefined` when it has none. */
  window(projectId: string): EndedWindow | undefined {
    const list = this.#byProject.get(projectId);
    if (list === undefined || list.start === list.length) return undefined;
    return { list, start: list.start, end: list.length };
  }

  /** The operations of a window, in the order they ended. */
  operations(window: EndedWindow): OperationState[] {
    const out: OperationState[] = [];
    for (let i = window.start; i < window.end; i++)
      out.push(this.operation(window.list.rows[i] as number));
    return out;
  }

  /**
   * The `limit` operations of a window with the largest sort keys below `before`, largest first:
   * a page of a listing, read from the sort key column without building the others.
   */
  newestBefore(window: EndedWindow, before: number, limit: number): OperationState[] {
    const keys: number[] = [];
    const rows: number[] = [];
    const numbers = this.#numbers;
    for (let i = window.start; i < window.end; i++) {
      const row = window.list.rows[i] as number;
      const key = numbers[row * NUMBER_KEYS.length + SORT_KEY] as number;
      if (key >= before || (keys.length === limit && key <= (keys[limit - 1] as number))) continue;
      let at = keys.length === limit ? limit - 1 : keys.length;
      while (at > 0 && (keys[at - 1] as number) < key) {
        keys[at] = keys[at - 1] as number;
        rows[at] = rows[at - 1] as number;
        at--;
      }
      keys[at] = key;
      rows[at] = row;
    }
    return rows.map((row) => this.operation(row));
  }

  /** Drops the project's operations last updated before `before` (they ended in that order). */
  prune(projectId: string, before: number): void {
    const list = this.#byProject.get(projectId);
    if (list === undefined) return;
    const numbers = this.#numbers;
    while (list.start < list.length) {
      const row = list.rows[list.start] as number;
      if ((numbers[row * NUMBER_KEYS.length + UPDATED_AT] as number) >= before) break;
      list.start++;
    }
  }

  /** Forgets every operation of a project (snapshots taken before keep showing theirs). */
  forget(projectId: string): void {
    this.#byProject.delete(projectId);
  }

  /** The record a row was archived from. */
  operation(row: number): OperationState {
    const out: Record<string, unknown> = {};
    const extra = this.#extras.get(row);
    for (const key of this.#shapeKeys[this.#shapes[row] as number] as readonly string[]) {
      if (key === 'id') out[key] = this.#idOf(row);
      else if (key === 'effects' && extra?.[key] === undefined) out[key] = ENDED_EFFECTS;
      else if (extra !== undefined && key in extra) out[key] = extra[key];
      else out[key] = this.#fieldOf(row, key);
    }
    return Object.freeze(out) as unknown as OperationState;
  }

  #keepField(row: number, key: string, value: unknown): boolean {
    const number = NUMBER_COLUMN.get(key);
    if (number !== undefined) {
      if (typeof value !== 'number') return false;
      this.#numbers[row * NUMBER_KEYS.length + number] = value;
      return true;
    }
    const string = STRING_COLUMN.get(key);
    if (string === undefined || typeof value !== 'string') return false;
    this.#strings[row * STRING_KEYS.length + string] = this.#codes.codeOf(value);
    return true;
  }

  #fieldOf(row: number, key: string): unknown {
    const number = NUMBER_COLUMN.get(key);
    if (number !== undefined) return this.#numbers[row * NUMBER_KEYS.length + number];
    const string = STRING_COLUMN.get(key) as number;
    return this.#codes.text(this.#strings[row * STRING_KEYS.length + string] as number);
  }

  #keepId(row: number, id: string): void {
    const word = this.#word;
    if (packUuid(id, word)) {
      this.#words.set(word, row * 4);
      this.#index(row);
    } else {
      this.#texts.set(row, id);
      this.#textRows.set(id, row);
    }
  }

  #idOf(row: number): string {
    const text = this.#texts.get(row);
    if (text !== undefined) return text;
    const w = this.#words;
    const at = row * 4;
    return uuidText(w[at] as number, w[at + 1] as number, w[at + 2] as number, w[at + 3] as number);
  }

  #rowOf(id: string): number | undefined {
    const word = this.#word;
    if (!packUuid(id, word)) return this.#textRows.get(id);
    const slots = this.#slots;
    const mask = slots.length - 1;
    const words = this.#words;
    for (let slot = (word[0] as number) & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot] as number;
      if (entry === 0) return undefined;
      const at = (entry - 1) * 4;
      if (
        words[at] === word[0] &&
        words[at + 1] === word[1] &&
        words[at + 2] === word[2] &&
        words[at + 3] === word[3]
      )
        return entry - 1;
    }
  }

  /** Puts a row with a packed id in the table (kept at most half full). */
  #index(row: number): void {
    if ((row + 1) * 2 > this.#slots.length) {
      const old = this.#slots;
      this.#slots = new Int32Array(old.length * 2);
      for (const entry of old) if (entry !== 0) this.#place(entry - 1);
    }
    this.#place(row);
  }

  #place(row: number): void {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let slot = (this.#words[row * 4] as number) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = row + 1;
  }

  #nextShape(node: ShapeNode, key: string): ShapeNode {
    let next = node.next.get(key);
    if (next === undefined) {
      next = { next: new Map(), keys: [...node.keys, key], id: -1 };
      node.next.set(key, next);
    }
    return next;
  }

  #shapeId(node: ShapeNode): number {
    if (node.id < 0) {
      node.id = this.#shapeKeys.length;
      this.#shapeKeys.push(node.keys);
    }
    return node.id;
  }

  #grow(): void {
    const capacity = Math.max(1024, this.#capacity * 2);
    this.#words = grown(this.#words, capacity * 4);
    this.#numbers = grown(this.#numbers, capacity * NUMBER_KEYS.length);
    this.#strings = grown(this.#strings, capacity * STRING_KEYS.length);
    this.#shapes = grown(this.#shapes, capacity);
    this.#positions = grown(this.#positions, capacity);
    this.#capacity = capacity;
  }
}

function grown<A extends Uint32Array | Float64Array | Int32Array | Uint16Array>(
  array: A,
  length: number,
): A {
  const out = new (array.constructor as new (length: number) => A)(length);
  out.set(array);
  return out;
}
