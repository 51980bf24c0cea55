/**
 * Fleet-wide levels as events arrive: active computes and their total CU (from the compute activity
 * projection), open workload sessions and open client connections. The time projections (samples,
 * buckets) feed it the log in order.
 */
import type { SimEvent } from '../model/events.js';
import { ComputeActivity } from './computeActivity.js';

/** Levels of the fleet right after the events applied so far. */
export class FleetTracker {
  readonly #activity = new ComputeActivity();
  /** Workload sessions waiting for their compute, and connected. */
  readonly #waiting = new Set<string>();
  readonly #sessions = new Set<string>();
  readonly #connections = new Set<string>();

  get activeComputes(): number {
    return this.#activity.activeComputes;
  }

  get totalCu(): number {
    return this.#activity.totalCu;
  }

  get sessions(): number {
    return this.#sessions.size;
  }

  get connections(): number {
    return this.#connections.size;
  }

  /** Applies one event. */
  apply(event: SimEvent): void {
    this.#activity.apply(event);
    switch (event.type) {
      case 'ConnectionRequested':
        if (event.holdMs !== undefined) this.#waiting.add(event.connectionId);
        break;
      case 'ConnectionOpened':
        this.#connections.add(event.connectionId);
        if (this.#waiting.delete(event.connectionId) || event.holdMs !== undefined)
          this.#sessions.add(event.connectionId);
        break;
      case 'ConnectionClosed':
      case 'ConnectionRefused':
        this.#end(event.connectionId);
        break;
      case 'ConnectionsDropped':
        for (const id of event.connectionIds) this.#end(id);
        break;
      default:
        break;
    }
  }

  #end(connectionId: string): void {
    this.#waiting.delete(connectionId);
    this.#sessions.delete(connectionId);
    this.#connections.delete(connectionId);
  }
}
