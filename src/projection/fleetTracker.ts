/**
 * Fleet-wide levels as events arrive: active computes, their total CU, open workload sessions and
 * open client connections. The time projections (samples, buckets) feed it the log in order.
 */
import type { SimEvent } from '../model/events.js';

/** Levels of the fleet right after the events applied so far. */
export class FleetTracker {
  readonly #minCu = new Map<string, number>();
  readonly #owner = new Map<string, string>();
  readonly #activeCu = new Map<string, number>();
  /** Workload sessions waiting for their compute, and connected. */
  readonly #waiting = new Set<string>();
  readonly #sessions = new Set<string>();
  readonly #connections = new Set<string>();
  #totalCu = 0;

  get activeComputes(): number {
    return this.#activeCu.size;
  }

  get totalCu(): number {
    return this.#totalCu;
  }

  get sessions(): number {
    return this.#sessions.size;
  }

  get connections(): number {
    return this.#connections.size;
  }

  /** Applies one event. */
  apply(event: SimEvent): void {
    switch (event.type) {
      case 'EndpointCreated':
        this.#minCu.set(event.endpointId, event.minCu);
        this.#owner.set(event.endpointId, event.projectId);
        break;
      case 'EndpointUpdated':
        if (event.changes.minCu !== undefined)
          this.#minCu.set(event.endpointId, event.changes.minCu);
        break;
      case 'EndpointDeleted':
        this.#setActive(event.endpointId, undefined);
        break;
      case 'ProjectDeleted':
        for (const [endpointId, projectId] of this.#owner)
          if (projectId === event.projectId) this.#setActive(endpointId, undefined);
        break;
      case 'ComputeStateChanged':
        if (event.currentState !== 'active') this.#setActive(event.endpointId, undefined);
        else if (!this.#activeCu.has(event.endpointId))
          this.#setActive(event.endpointId, this.#minCu.get(event.endpointId) ?? 0);
        break;
      case 'ComputeResized':
        if (this.#activeCu.has(event.endpointId)) this.#setActive(event.endpointId, event.toCu);
        break;
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

  #setActive(endpointId: string, cu: number | undefined): void {
    this.#totalCu -= this.#activeCu.get(endpointId) ?? 0;
    if (cu === undefined) this.#activeCu.delete(endpointId);
    else {
      this.#activeCu.set(endpointId, cu);
      this.#totalCu += cu;
    }
  }

  #end(connectionId: string): void {
    this.#waiting.delete(connectionId);
    this.#sessions.delete(connectionId);
    this.#connections.delete(connectionId);
  }
}
