/**
 * Keeps the branches' data in step with the control plane, event by event: a new branch gets a
 * copy of its parent's databases, a reset or restore its source's; deleted databases, branches and
 * projects lose theirs (a branch or project kept for recovery keeps it until purged); a branch
 * whose computes have all gone to sleep has its databases (or its server) closed. Each change is a
 * job in the background, reported to `onError` if it fails; `settled` waits for them all.
 */
import type { SimEvent } from '../model/events.js';
import type { BranchDataStore, DatabaseCopy } from './branchDataStore.js';
import type { BranchRef } from './dataPaths.js';
import type { FrontHost } from './frontHost.js';

/** A database as an event or the state names it: its id and name. */
interface NewDatabaseLike {
  readonly id: number;
  readonly name: string;
}

/** Follows a served simulation's events with its branch data. */
export class BranchDataFollower {
  readonly #host: FrontHost;
  readonly #databases: BranchDataStore;
  readonly #onError: (error: unknown) => void;
  /** Data jobs (copies and deletions) under way. */
  readonly #jobs = new Set<Promise<void>>();

  constructor(host: FrontHost, databases: BranchDataStore, onError: (error: unknown) => void) {
    this.#host = host;
    this.#databases = databases;
    this.#onError = onError;
  }

  /** Resolves once every job started so far has ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.#jobs]);
  }

  /**
   * Closes the branch's database instances once none of its computes is active or on its way
   * (suspended, deleted): the next client's connect opens them again, as a cold start.
   */
  #closeWhenAsleep(branch: BranchRef, asleepId?: string): void {
    const project = this.#host.sim.state.projects[branch.projectId];
    const awake = Object.values(project?.endpoints ?? {}).some(
      (endpoint) =>
        endpoint.branchId === branch.branchId &&
        endpoint.id !== asleepId &&
        (endpoint.currentState !== 'idle' || endpoint.pendingState !== undefined),
    );
    if (!awake) this.#job(this.#databases.closeBranch(branch));
  }

  follow(event: SimEvent): void {
    if (!('projectId' in event) || typeof event.projectId !== 'string') return;
    const projectId = event.projectId;
    const at = (branchId: string) => ({ projectId, branchId });
    const copy = (from: string, to: string, databases: readonly NewDatabaseLike[] = []) =>
      this.#job(this.#databases.copyDatabases(this.#copies(projectId, from, to, databases)));
    switch (event.type) {
      case 'ComputeStateChanged': {
        const endpoint = this.#host.sim.state.projects[projectId]?.endpoints[event.endpointId];
        if (event.currentState === 'idle' && event.pendingState === null && endpoint !== undefined)
          this.#closeWhenAsleep(at(endpoint.branchId), endpoint.id);
        break;
      }
      case 'EndpointDeleted':
        // The event names no branch; the state read during the command may still show the compute
        // (as awake): look at every branch, the deleted compute left out.
        for (const branchId of Object.keys(
          this.#host.sim.state.projects[projectId]?.branches ?? {},
        ))
          this.#closeWhenAsleep(at(branchId), event.endpointId);
        break;
      case 'BranchCreated':
        if (event.parentId !== undefined) copy(event.parentId, event.branchId, event.databases);
        break;
      case 'BranchPreserved':
        copy(event.fromBranchId, event.branchId, event.databases);
        break;
      case 'BranchRestored': {
        const source = event.sourceBranchId ?? event.parentId;
        const branch = this.#host.sim.state.projects[event.projectId]?.branches[event.branchId];
        if (source !== undefined && source !== event.branchId)
          copy(source, event.branchId, branch?.databases);
        break;
      }
      case 'BranchDeleted':
        // A branch kept for recovery keeps its data until it is purged, but not its instances.
        this.#job(
          event.recoverableUntil === undefined
            ? this.#databases.drop(at(event.branchId))
            : this.#databases.closeBranch(at(event.branchId)),
        );
        break;
      case 'BranchPurged':
        this.#job(this.#databases.drop(at(event.branchId)));
        break;
      case 'DatabaseDeleted': {
        // The event names the database, not its id. The state read during a command is the one
        // before it, which still has the database; one read after it no longer does, and then
        // every other database of the branch is kept instead.
        const branch = this.#host.sim.state.projects[projectId]?.branches[event.branchId];
        const id = branch?.databases.find((database) => database.name === event.name)?.id;
        if (id !== undefined)
          this.#job(this.#databases.drop({ ...at(event.branchId), databaseId: id }));
        else if (branch !== undefined)
          this.#job(
            this.#databases.dropOthers(
              at(event.branchId),
              branch.databases.map((database) => database.id),
            ),
          );
        break;
      }
      case 'DatabaseUpdated': {
        const updated = this.#databases.updateDatabase?.(
          at(event.branchId),
          event.name,
          event.changes,
        );
        if (updated !== undefined) this.#job(updated);
        break;
      }
      case 'ProjectDeleted':
        // Likewise a project: its data goes when it is purged, or at once when not kept.
        if (event.recoverableUntil === undefined) this.#job(this.#databases.drop({ projectId }));
        break;
      case 'ProjectPurged':
        this.#job(this.#databases.drop({ projectId }));
        break;
      default:
        break;
    }
  }

  /**
   * The copies that make `to`'s databases those of `from` (by name: a branch's databases have ids
   * of their own); a database `from` lacks starts empty.
   */
  #copies(
    projectId: string,
    from: string,
    to: string,
    databases: readonly NewDatabaseLike[],
  ): DatabaseCopy[] {
    const sources = this.#host.sim.state.projects[projectId]?.branches[from]?.databases ?? [];
    return databases.map((database) => {
      const source = sources.find((candidate) => candidate.name === database.name);
      return {
        ...(source === undefined
          ? {}
          : { from: { projectId, branchId: from, databaseId: source.id } }),
        to: { projectId, branchId: to, databaseId: database.id },
      };
    });
  }

  #job(work: Promise<void>): void {
    const job = work.catch((error: unknown) => this.#onError(error));
    this.#jobs.add(job);
    void job.finally(() => this.#jobs.delete(job));
  }
}
