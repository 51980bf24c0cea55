/**
 * A prototype of issue 48's layout for computes and their operations, to measure before porting:
 * state the engine owns in columns indexed by small integer handles, changed in place by a writer
 * that marks what it changed, events carrying handles (ids interned once, before the timing, as a
 * log and handlers speaking handles would give them). Each kind's apply does the work today's
 * `evolve` does for it (usage counting, the idle clock, the operation's record, its project's
 * pending set, the archive of ended operations); the timers an event arms are not part of it.
 * Not the model: a yardstick for what the port can buy.
 */
import type { LoggedEvent } from '../../src/engine/index.js';

/** The kinds the prototype applies. */
export const PORTED_KINDS = [
  'EndpointCreated',
  'ComputeStateChanged',
  'ComputeResized',
  'OperationCreated',
  'OperationStarted',
  'OperationFinished',
] as const;
type PortedKind = (typeof PORTED_KINDS)[number];

const STATES = ['init', 'active', 'idle', 'suspended'] as const;
const NONE = -1;

/** An event with its ids as handles and its words as codes; `kind` indexes `PORTED_KINDS`. */
export interface HandleEvent {
  readonly kind: number;
  readonly at: number;
  readonly project: number;
  readonly compute: number;
  readonly operation: number;
  readonly after: number;
  readonly code: number;
  readonly code2: number;
  readonly value: number;
  readonly value2: number;
}

/** Interns ids to handles, in the order they first appear. */
class Handles {
  readonly #of = new Map<string, number>();
  of(id: string | undefined): number {
    if (id === undefined) return NONE;
    let handle = this.#of.get(id);
    if (handle === undefined) this.#of.set(id, (handle = this.#of.size));
    return handle;
  }
  get size(): number {
    return this.#of.size;
  }
}

/** The ported events of `events` in handle form (the rest left out); interning is not timed. */
export function toHandleEvents(events: readonly LoggedEvent[]): {
  readonly events: HandleEvent[];
  readonly projects: number;
  readonly computes: number;
  readonly operations: number;
} {
  const projects = new Handles();
  const computes = new Handles();
  const operations = new Handles();
  const actions = new Handles();
  const out: HandleEvent[] = [];
  for (const raw of events) {
    const kind = PORTED_KINDS.indexOf(raw.type as PortedKind);
    if (kind < 0) continue;
    const e = raw as unknown as Record<string, unknown>;
    const state = (name: unknown) => (name === null ? NONE : STATES.indexOf(name as never));
    out.push({
      kind,
      at: raw.at,
      project: projects.of(e['projectId'] as string),
      compute: computes.of(e['endpointId'] as string | undefined),
      operation: operations.of(e['operationId'] as string | undefined),
      after: operations.of(e['afterId'] as string | undefined),
      code:
        raw.type === 'ComputeStateChanged'
          ? state(e['currentState'])
          : actions.of(e['action'] as string | undefined),
      code2: raw.type === 'ComputeStateChanged' ? state(e['pendingState']) : NONE,
      value: Number(e['toCu'] ?? e['minCu'] ?? e['durationMs'] ?? 0),
      value2: Number(e['maxCu'] ?? 0),
    });
  }
  return {
    events: out,
    projects: projects.size,
    computes: computes.size,
    operations: operations.size,
  };
}

/** Computes and operations in columns, changed in place, every change marked for publishing. */
export class ColumnState {
  // Computes.
  readonly currentState: Int8Array;
  readonly pendingState: Int8Array;
  readonly minCu: Float64Array;
  readonly allocatedCu: Float64Array;
  readonly usageCountedTo: Float64Array;
  readonly startedAt: Float64Array;
  readonly suspendedAt: Float64Array;
  readonly updatedAt: Float64Array;
  readonly idleSince: Float64Array;
  readonly activeConnections: Int32Array;
  readonly computeProject: Int32Array;
  // Projects.
  readonly usedActiveMs: Float64Array;
  readonly usedCuMs: Float64Array;
  readonly lastSortKey: Float64Array;
  readonly pendingCount: Int32Array;
  // Live operations by handle.
  readonly opStatus: Int8Array;
  readonly opAction: Int16Array;
  readonly opCreatedAt: Float64Array;
  readonly opUpdatedAt: Float64Array;
  readonly opStartedAt: Float64Array;
  readonly opDurationMs: Float64Array;
  readonly opSortKey: Float64Array;
  readonly opNext: Int32Array;
  // Ended operations, appended (the archive).
  readonly endedOp: Int32Array;
  readonly endedTotalMs: Float64Array;
  endedCount = 0;
  // What changed since the last publish: computes and projects, each marked once.
  readonly #dirtyComputes: Uint8Array;
  readonly dirtyList: number[] = [];

  constructor(projects: number, computes: number, operations: number) {
    this.currentState = new Int8Array(computes).fill(0);
    this.pendingState = new Int8Array(computes).fill(NONE);
    this.minCu = new Float64Array(computes);
    this.allocatedCu = new Float64Array(computes);
    this.usageCountedTo = new Float64Array(computes).fill(NaN);
    this.startedAt = new Float64Array(computes);
    this.suspendedAt = new Float64Array(computes);
    this.updatedAt = new Float64Array(computes);
    this.idleSince = new Float64Array(computes).fill(NaN);
    this.activeConnections = new Int32Array(computes);
    this.computeProject = new Int32Array(computes);
    this.usedActiveMs = new Float64Array(projects);
    this.usedCuMs = new Float64Array(projects);
    this.lastSortKey = new Float64Array(projects);
    this.pendingCount = new Int32Array(projects);
    this.opStatus = new Int8Array(operations);
    this.opAction = new Int16Array(operations);
    this.opCreatedAt = new Float64Array(operations);
    this.opUpdatedAt = new Float64Array(operations);
    this.opStartedAt = new Float64Array(operations);
    this.opDurationMs = new Float64Array(operations);
    this.opSortKey = new Float64Array(operations);
    this.opNext = new Int32Array(operations).fill(NONE);
    this.endedOp = new Int32Array(operations);
    this.endedTotalMs = new Float64Array(operations);
    this.#dirtyComputes = new Uint8Array(computes);
  }

  /** Clears what changed, as a publish does. */
  clearMarks(): void {
    for (const compute of this.dirtyList) this.#dirtyComputes[compute] = 0;
    this.dirtyList.length = 0;
  }

  #touch(compute: number): void {
    if (this.#dirtyComputes[compute] === 0) {
      this.#dirtyComputes[compute] = 1;
      this.dirtyList.push(compute);
    }
  }

  #countUsage(c: number, at: number): void {
    const from = this.usageCountedTo[c]!;
    if (Number.isNaN(from)) return;
    const span = Math.max(0, at - from);
    const p = this.computeProject[c]!;
    this.usedActiveMs[p]! += span;
    this.usedCuMs[p]! += span * this.allocatedCu[c]!;
    this.usageCountedTo[c] = at;
  }

  /** Applies one event in place (the prototype's declarations, by kind). */
  apply(e: HandleEvent): void {
    switch (e.kind) {
      case 0: {
        // EndpointCreated
        const c = e.compute;
        this.computeProject[c] = e.project;
        this.minCu[c] = e.value;
        this.updatedAt[c] = e.at;
        this.pendingState[c] = 1;
        this.#touch(c);
        return;
      }
      case 1: {
        // ComputeStateChanged
        const c = e.compute;
        const wasActive = this.currentState[c] === 1;
        this.currentState[c] = e.code;
        this.pendingState[c] = e.code2;
        this.updatedAt[c] = e.at;
        if (e.code === 1 && !wasActive) {
          this.startedAt[c] = e.at;
          this.allocatedCu[c] = this.minCu[c]!;
          this.usageCountedTo[c] = e.at;
        } else if (e.code !== 1 && wasActive) {
          this.#countUsage(c, e.at);
          this.usageCountedTo[c] = NaN;
          this.suspendedAt[c] = e.at;
        }
        const idle = e.code === 1 && e.code2 === NONE && this.activeConnections[c] === 0;
        if (!idle) this.idleSince[c] = NaN;
        else if (Number.isNaN(this.idleSince[c]!)) this.idleSince[c] = e.at;
        this.#touch(c);
        return;
      }
      case 2: {
        // ComputeResized
        const c = e.compute;
        this.#countUsage(c, e.at);
        this.allocatedCu[c] = e.value;
        this.#touch(c);
        return;
      }
      case 3: {
        // OperationCreated
        const o = e.operation;
        const p = e.project;
        const sortKey = Math.max(e.at * 1000, this.lastSortKey[p]! + 1);
        this.lastSortKey[p] = sortKey;
        this.opStatus[o] = 0;
        this.opAction[o] = e.code;
        this.opCreatedAt[o] = e.at;
        this.opUpdatedAt[o] = e.at;
        this.opDurationMs[o] = e.value;
        this.opSortKey[o] = sortKey;
        this.pendingCount[p]! += 1;
        if (e.after !== NONE) this.opNext[e.after] = o;
        return;
      }
      case 4: {
        // OperationStarted
        const o = e.operation;
        this.opStatus[o] = 1;
        this.opStartedAt[o] = e.at;
        this.opDurationMs[o] = e.value;
        this.opUpdatedAt[o] = e.at;
        return;
      }
      case 5: {
        // OperationFinished: settled, out of its project's pending set, into the archive.
        const o = e.operation;
        this.opStatus[o] = 2;
        this.opUpdatedAt[o] = e.at;
        this.pendingCount[e.project]! -= 1;
        this.endedOp[this.endedCount] = o;
        this.endedTotalMs[this.endedCount++] = e.at - this.opCreatedAt[o]!;
        return;
      }
    }
  }
}
