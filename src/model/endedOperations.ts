/**
 * The archive of ended operations: a fleet's month ends millions of them, and nothing but readers of
 * the API and of snapshots looks at one again, so they leave the working state's records for
 * columns (`OperationColumns`: about 90 bytes a row, nothing for the collector to trace). Each
 * project's rows are listed in the order its operations ended; pruning moves the project's start,
 * and once most rows are pruned, the kept ones move to a new generation of columns. Snapshots hold
 * windows onto the generation of their moment, so no later change reaches them.
 */
import { StringCodes } from '../core/stringCodes.js';
import { packUuid } from '../core/uuidWords.js';
import { ColumnTables, OperationColumns } from './operationColumns.js';
import type { OperationState } from './state.js';

export { ENDED_EFFECTS } from './operationColumns.js';

/** Rows below which the archive never compacts (a copy would cost more than it frees). */
const COMPACT_FROM = 4_096;

/** The rows of one project, in the order its operations ended; those before `start` are pruned. */
class ProjectRows {
  rows = new Int32Array(8);
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
 * The rows a project had at one moment: what a snapshot shows. Later additions, prunings and
 * compactions never change it (rows are appended past its end, pruning only moves the project's
 * start, and a compaction writes a new generation).
 */
export interface EndedWindow {
  readonly columns: OperationColumns;
  readonly list: ProjectRows;
  readonly start: number;
  readonly end: number;
}

/** Ended operations in columns, each findable by id within its project's current rows. */
export class EndedOperations {
  readonly #tables = new ColumnTables(new StringCodes());
  #columns = new OperationColumns(this.#tables);
  #byProject = new Map<string, ProjectRows>();
  /** Position of each row in its project's list (to tell whether a found row is still kept). */
  #positions = new Int32Array(32);
  /**
   * Row + 1 per slot of an open-addressing table keyed by the id's first word (0: empty). Built
   * when an id is first looked up, and kept up to date from then on: a run nobody asks about an
   * ended operation (a fleet's month) never pays for it.
   */
  #slots = new Int32Array(64);
  /** Rows whose ids are not canonical UUIDs, by id. */
  #textRows = new Map<string, number>();
  /** Rows of the current generation in the table (those past it are put there at the next lookup). */
  #indexed = 0;
  /** Rows not pruned or forgotten. */
  #kept = 0;
  readonly #word = new Uint32Array(4);
  /** The operation archived last, as it was: the one the timers of its end look up at once. */
  #last: OperationState | undefined;
  #lastRow = -1;

  /** Archives an ended operation's frozen record (of project `operation.projectId`). */
  add(operation: OperationState): void {
    const row = this.#columns.add(operation);
    this.#last = operation;
    this.#lastRow = row;
    let list = this.#byProject.get(operation.projectId);
    if (list === undefined) this.#byProject.set(operation.projectId, (list = new ProjectRows()));
    this.#place(row, list.push(row));
  }

  /** The ended operation `id` of project `projectId`, unless it was pruned. */
  find(projectId: string, id: string): OperationState | undefined {
    const last = this.#last;
    if (last !== undefined && last.id === id && last.projectId === projectId)
      return this.#isKept(this.#lastRow, projectId) ? last : undefined;
    const row = this.#rowOf(id);
    return row !== undefined && this.#isKept(row, projectId)
      ? this.#columns.operation(row)
      : undefined;
  }

  /** The project's rows as they stand now, or `undefined` when it has none. */
  window(projectId: string): EndedWindow | undefined {
    const list = this.#byProject.get(projectId);
    if (list === undefined || list.start === list.length) return undefined;
    return { columns: this.#columns, list, start: list.start, end: list.length };
  }

  /** The operations of a window, in the order they ended. */
  operations(window: EndedWindow): OperationState[] {
    const out: OperationState[] = [];
    for (let i = window.start; i < window.end; i++)
      out.push(window.columns.operation(window.list.rows[i] as number));
    return out;
  }

  /**
   * The `limit` operations of a window with the largest sort keys below `before`, largest first:
   * a page of a listing, read from the sort key column without building the others.
   */
  newestBefore(window: EndedWindow, before: number, limit: number): OperationState[] {
    const rows: number[] = [];
    for (let i = window.start; i < window.end; i++) {
      const row = window.list.rows[i] as number;
      if (window.columns.sortKey(row) < before) rows.push(row);
    }
    rows.sort((a, b) => window.columns.sortKey(b) - window.columns.sortKey(a));
    if (rows.length > limit) rows.length = limit;
    return rows.map((row) => window.columns.operation(row));
  }

  /** Drops the project's operations last updated before `before` (they ended in that order). */
  prune(projectId: string, before: number): void {
    const list = this.#byProject.get(projectId);
    if (list === undefined) return;
    const from = list.start;
    while (
      list.start < list.length &&
      this.#columns.updatedAt(list.rows[list.start] as number) < before
    )
      list.start++;
    this.#kept -= list.start - from;
    this.#compactIfSparse();
  }

  /** Forgets every operation of a project (snapshots taken before keep showing theirs). */
  forget(projectId: string): void {
    const list = this.#byProject.get(projectId);
    if (list === undefined) return;
    this.#kept -= list.length - list.start;
    this.#byProject.delete(projectId);
    this.#compactIfSparse();
  }

  /** Rows held now (kept or not yet compacted away), for tests and reports of memory. */
  get rows(): number {
    return this.#columns.rows;
  }

  /** Moves the kept rows to a new generation once most rows are pruned or forgotten. */
  #compactIfSparse(): void {
    const old = this.#columns;
    if (old.rows < COMPACT_FROM || this.#kept * 2 > old.rows) return;
    this.#columns = new OperationColumns(this.#tables);
    this.#last = undefined;
    this.#positions = new Int32Array(Math.max(32, this.#kept));
    this.#slots = new Int32Array(64);
    this.#textRows = new Map();
    this.#indexed = 0;
    this.#kept = 0;
    const lists = this.#byProject;
    this.#byProject = new Map();
    for (const [projectId, list] of lists) {
      const moved = new ProjectRows();
      for (let i = list.start; i < list.length; i++) {
        const row = this.#columns.copy(old, list.rows[i] as number);
        this.#place(row, moved.push(row));
      }
      if (moved.length > 0) this.#byProject.set(projectId, moved);
    }
  }

  /** Records a new row's position in its project's list. */
  #place(row: number, position: number): void {
    if (row >= this.#positions.length) {
      const grown = new Int32Array(this.#positions.length * 2);
      grown.set(this.#positions);
      this.#positions = grown;
    }
    this.#positions[row] = position;
    this.#kept++;
  }

  /** Puts the rows added since the last lookup in the id table. */
  #indexNewRows(): void {
    for (; this.#indexed < this.#columns.rows; this.#indexed++) this.#index(this.#indexed);
  }

  #index(row: number): void {
    const hash = this.#columns.hashOf(row);
    if (hash < 0) {
      this.#textRows.set(this.#columns.idOf(row), row);
      return;
    }
    if ((row + 1) * 2 > this.#slots.length) {
      const old = this.#slots;
      this.#slots = new Int32Array(old.length * 2);
      for (const entry of old) if (entry !== 0) this.#slot(entry - 1);
    }
    this.#slot(row);
  }

  #slot(row: number): void {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let slot = this.#columns.hashOf(row) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = row + 1;
  }

  #rowOf(id: string): number | undefined {
    this.#indexNewRows();
    const word = this.#word;
    if (!packUuid(id, word)) return this.#textRows.get(id);
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let slot = (word[0] as number) & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot] as number;
      if (entry === 0) return undefined;
      if (this.#columns.hasId(entry - 1, word)) return entry - 1;
    }
  }

  /** Whether a row is among its project's current rows (not pruned, not forgotten). */
  #isKept(row: number, projectId: string): boolean {
    const list = this.#byProject.get(projectId);
    const position = this.#positions[row] as number;
    if (list === undefined || position < list.start || position >= list.length) return false;
    return list.rows[position] === row;
  }
}
