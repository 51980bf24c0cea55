/**
 * Compute activity as the log tells it: per compute, whether it is active, at what CU and since
 * when, and the CU-time that added up to; fleet-wide, how many computes are active and their total
 * CU. The one place that reads compute lifecycles from events: metrics, time series (through the
 * fleet tracker) and lanes feed it the log in order and read what they need.
 */
import type { SimEvent } from '../model/events.js';

/** A span a compute spent in one state (recorded only when asked for: lanes draw them). */
export interface StateSpan {
  readonly from: number;
  readonly to: number;
  readonly state: string;
}

/** One compute's activity so far (read it; only the projection changes it). */
export interface ComputeActivityRecord {
  readonly endpointId: string;
  readonly projectId: string;
  /** `read_write` or `read_only`. */
  readonly type: string;
  /** The size it starts at (its minimum, as last updated). */
  readonly minCu: number;
  /** Its last reported state (`init`, `active`, `idle`) and since when. */
  readonly state: string;
  readonly stateSince: number;
  /** Counted as active: from a start until it leaves `active` or is deleted. */
  readonly active: boolean;
  /** Its size while active (set to `minCu` at each start, then by autoscaling). */
  readonly cu: number;
  /** When it last became active (a cold cache warms up from there). */
  readonly startedAt: number | undefined;
  /** Active time and CU × active time accounted so far, ms (up to `finish` at the end). */
  readonly activeMs: number;
  readonly cuMs: number;
  readonly starts: number;
  /** Times it left `active` (a deletion is not a suspend). */
  readonly suspends: number;
  readonly resizes: number;
  /** Deleted (its lane ends there), and not recovered since (a recovery takes the lane up again, idle). */
  readonly ended: boolean;
  /** Its state spans, when the projection records them. */
  readonly spans: readonly StateSpan[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface Tally extends Mutable<ComputeActivityRecord> {
  /** Up to when active time is accounted. */
  accountedTo: number;
  spans: StateSpan[];
}

const NO_SPANS: readonly StateSpan[] = Object.freeze([]);

/** Settings of a compute activity projection. */
export interface ComputeActivityOptions {
  /** Record each compute's state spans (default false: metrics and time series do not need them). */
  readonly spans?: boolean;
}

/** Compute activity, fed the events of a log in order. */
export class ComputeActivity {
  readonly #computes = new Map<string, Tally>();
  readonly #byProject = new Map<string, Tally[]>();
  readonly #spans: boolean;
  #activeComputes = 0;
  #totalCu = 0;

  constructor(options: ComputeActivityOptions = {}) {
    this.#spans = options.spans === true;
  }

  /** How many computes are active. */
  get activeComputes(): number {
    return this.#activeComputes;
  }

  /** Their total CU. */
  get totalCu(): number {
    return this.#totalCu;
  }

  /** A compute's activity, if the log created it. */
  get(endpointId: string): ComputeActivityRecord | undefined {
    return this.#computes.get(endpointId);
  }

  /** Every compute the log created, in creation order. */
  computes(): IterableIterator<ComputeActivityRecord> {
    return this.#computes.values();
  }

  /** Applies one event (events that do not concern compute activity are ignored). */
  apply(event: SimEvent): void {
    switch (event.type) {
      case 'EndpointCreated': {
        const tally: Tally = {
          endpointId: event.endpointId,
          projectId: event.projectId,
          type: event.endpointType,
          minCu: event.minCu,
          state: 'init',
          stateSince: event.at,
          active: false,
          cu: event.minCu,
          startedAt: undefined,
          accountedTo: event.at,
          activeMs: 0,
          cuMs: 0,
          starts: 0,
          suspends: 0,
          resizes: 0,
          ended: false,
          spans: this.#spans ? [] : (NO_SPANS as StateSpan[]),
        };
        this.#computes.set(event.endpointId, tally);
        let siblings = this.#byProject.get(event.projectId);
        if (siblings === undefined) this.#byProject.set(event.projectId, (siblings = []));
        siblings.push(tally);
        return;
      }
      case 'EndpointUpdated': {
        const tally = this.#computes.get(event.endpointId);
        if (tally !== undefined && event.changes.minCu !== undefined)
          tally.minCu = event.changes.minCu;
        return;
      }
      case 'EndpointDeleted': {
        const tally = this.#computes.get(event.endpointId);
        if (tally !== undefined) this.#end(tally, event.at);
        return;
      }
      case 'ProjectDeleted':
        for (const tally of this.#byProject.get(event.projectId) ?? []) this.#end(tally, event.at);
        return;
      case 'ProjectRecovered':
      case 'BranchRecovered':
        for (const endpointId of event.endpointIds) {
          const tally = this.#computes.get(endpointId);
          if (tally !== undefined) this.#revive(tally, event.at);
        }
        return;
      case 'ComputeStateChanged': {
        const tally = this.#computes.get(event.endpointId);
        if (tally === undefined) return;
        const at = event.at;
        if (event.currentState === 'active' && !tally.active) {
          tally.active = true;
          tally.accountedTo = at;
          tally.startedAt = at;
          tally.cu = tally.minCu;
          tally.starts++;
          this.#activeComputes++;
          this.#totalCu += tally.cu;
        } else if (event.currentState !== 'active' && tally.active) {
          this.#stop(tally, at);
          tally.suspends++;
        }
        if (tally.state !== event.currentState) {
          this.#closeSpan(tally, at);
          tally.state = event.currentState;
        }
        return;
      }
      case 'ComputeResized': {
        const tally = this.#computes.get(event.endpointId);
        if (tally === undefined) return;
        if (tally.active) {
          this.#account(tally, event.at);
          this.#totalCu -= tally.cu;
          this.#totalCu += event.toCu;
        }
        tally.cu = event.toCu;
        tally.resizes++;
        return;
      }
      default:
        return;
    }
  }

  /**
   * A compute's active time and CU × active time as they would stand at `at` (no earlier than the
   * last event), without accounting anything: for reading figures in the middle of a run.
   */
  usageAt(record: ComputeActivityRecord, at: number): { activeMs: number; cuMs: number } {
    const tally = record as Tally;
    if (!tally.active) return { activeMs: tally.activeMs, cuMs: tally.cuMs };
    const span = Math.max(0, at - tally.accountedTo);
    return { activeMs: tally.activeMs + span, cuMs: tally.cuMs + span * tally.cu };
  }

  /** Accounts every active compute's time up to `at` (spans stay open): where a measured span starts. */
  accountTo(at: number): void {
    for (const tally of this.#computes.values()) this.#account(tally, at);
  }

  /** Accounts every compute up to `at` and closes its last span: once, at the end of the log. */
  finish(at: number): void {
    for (const tally of this.#computes.values()) {
      this.#account(tally, at);
      this.#closeSpan(tally, at);
    }
  }

  /** Deleted: no longer active (not a suspend), and its lane ends. */
  #end(tally: Tally, at: number): void {
    if (tally.active) this.#stop(tally, at);
    this.#closeSpan(tally, at);
    tally.ended = true;
  }

  /** Recovered after a deletion: idle from `at` on, its lane going on after the gap. */
  #revive(tally: Tally, at: number): void {
    tally.ended = false;
    tally.state = 'idle';
    tally.stateSince = at;
  }

  #stop(tally: Tally, at: number): void {
    this.#account(tally, at);
    tally.active = false;
    this.#activeComputes--;
    this.#totalCu -= tally.cu;
  }

  #account(tally: Tally, at: number): void {
    if (!tally.active) return;
    const span = Math.max(0, at - tally.accountedTo);
    tally.activeMs += span;
    tally.cuMs += span * tally.cu;
    tally.accountedTo = at;
  }

  #closeSpan(tally: Tally, at: number): void {
    if (tally.ended) return;
    if (this.#spans && at > tally.stateSince)
      tally.spans.push({ from: tally.stateSince, to: at, state: tally.state });
    tally.stateSince = at;
  }
}
