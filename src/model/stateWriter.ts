/**
 * The only way an event changes the state: a small writer over the state being changed (the
 * engine's working state, or an immer draft for `stateAt` and the fold oracle) that hands out the
 * objects to change and records each one's path as it does, so the next snapshot copies exactly
 * those. The state to read is typed read-only, so a change that bypasses the writer does not
 * compile, and no event kind keeps a list of what it touches.
 */
import type { Draft } from 'immer';
import type { Profile } from '../domain/profile.js';
import { OWN_FIELDS, type Touch } from '../engine/dirtyPaths.js';
import { archiveOf } from './operationStore.js';
import type { OperationState, ProjectState, SimState } from './state.js';
import { countOf, deleteEntry, emptyLike, entryOf, setEntry } from './workingMaps.js';

/** The collections a project holds, each an entry per id. */
export type ProjectCollection =
  'branches' | 'endpoints' | 'operations' | 'pendingOperations' | 'deletedBranches';

/** An entry of one of a project's collections. */
type ProjectEntry<K extends ProjectCollection> = NonNullable<ProjectState[K]>[string];

/** A project's own fields to change; what it holds changes through the writer's entries. */
export type ProjectFields = Omit<Draft<ProjectState>, ProjectCollection> &
  Pick<ProjectState, ProjectCollection>;

/** The state's collections keyed by id (live connections have their own methods). */
export type RootCollection =
  'endpointOwners' | 'connections' | 'workloads' | 'apiKeys' | 'deletedProjects';

/** An entry of one of the state's collections. */
type RootEntry<K extends RootCollection> = NonNullable<SimState[K]>[string];

/** What the error for a missing entry calls it. */
const NOUNS: Readonly<Record<ProjectCollection, string>> = {
  branches: 'branch',
  endpoints: 'compute',
  operations: 'operation',
  pendingOperations: 'pending operation',
  deletedBranches: 'deleted branch',
};

/**
 * A project's collection by name, each read as a property of its own (one shape for the compiler
 * at each, where an index by a variable name is a dictionary lookup).
 */
function collectionOf(
  project: Draft<ProjectState>,
  collection: ProjectCollection,
): Writable | undefined {
  switch (collection) {
    case 'endpoints':
      return project.endpoints;
    case 'operations':
      return project.operations;
    case 'pendingOperations':
      return project.pendingOperations;
    case 'branches':
      return project.branches;
    case 'deletedBranches':
      return project.deletedBranches;
  }
}

/** One of the state's collections by name (see `collectionOf`). */
function rootCollectionOf(
  state: Draft<SimState>,
  collection: RootCollection,
): Record<string, unknown> | undefined {
  switch (collection) {
    case 'connections':
      return state.connections;
    case 'endpointOwners':
      return state.endpointOwners;
    case 'workloads':
      return state.workloads;
    case 'apiKeys':
      return state.apiKeys;
    case 'deletedProjects':
      return state.deletedProjects;
  }
}

/** Does nothing: the touch of a draft nobody publishes from, or of events past tracking. */
export const NO_TOUCH: Touch = () => undefined;

type Writable = Record<string, unknown>;

/**
 * Changes one state, recording the path of everything it hands out or replaces. Bound to a state
 * and a `touch` per event (`bind`), so one writer serves a whole run without allocating.
 */
export class StateWriter {
  #state: Draft<SimState> = {} as Draft<SimState>;
  #touch: Touch = NO_TOUCH;

  /** Points the writer at `state`, recording paths through `touch`. */
  bind(state: Draft<SimState>, touch: Touch): this {
    this.#state = state;
    this.#touch = touch;
    return this;
  }

  /** The state as it stands, to read. */
  get state(): SimState {
    return this.#state;
  }

  /**
   * Moves an ended (frozen) operation out of its project's record into the working state's archive
   * of ended operations; a draft has no archive and keeps it in the record.
   */
  archiveEnded(projectId: string, ended: OperationState): void {
    const archive = archiveOf(this.#state);
    if (archive === undefined) return;
    archive.add(ended);
    this.remove(projectId, 'operations', ended.id);
  }

  /** Prunes a project's archived operations that ended before `before`. */
  pruneArchived(projectId: string, before: number): void {
    const archive = archiveOf(this.#state);
    if (archive === undefined) return;
    archive.prune(projectId, before);
    // The project's snapshot shows its archived operations: it is published anew.
    this.#touch('projects', projectId, OWN_FIELDS);
  }

  /** Forgets a project's archived operations (the project is gone). */
  forgetArchived(projectId: string): void {
    archiveOf(this.#state)?.forget(projectId);
    this.#touch('projects', projectId);
  }

  /** Project `projectId`'s own fields, to change; throws when there is no such project. */
  project(projectId: string): ProjectFields {
    const project = this.#state.projects[projectId];
    if (project === undefined) throw new Error(`no project ${projectId}`);
    this.#touch('projects', projectId, OWN_FIELDS);
    return project;
  }

  /** Puts a whole project (created, recovered) under `projectId`; returns it as stored. */
  putProject(projectId: string, project: ProjectState): Draft<ProjectState> {
    this.#state.projects[projectId] = project as Draft<ProjectState>;
    this.#touch('projects', projectId);
    return this.#state.projects[projectId];
  }

  /** Removes project `projectId` whole. */
  removeProject(projectId: string): void {
    delete this.#state.projects[projectId];
    this.#touch('projects', projectId);
  }

  /** An entry a project holds, to change; throws when the project or the entry is missing. */
  entry<K extends ProjectCollection>(
    projectId: string,
    collection: K,
    id: string,
  ): Draft<ProjectEntry<K>> {
    const record = this.#state.projects[projectId];
    const found = record === undefined ? undefined : collectionOf(record, collection)?.[id];
    if (found === undefined)
      throw new Error(`no ${NOUNS[collection]} ${id} in project ${projectId}`);
    this.#touch('projects', projectId, collection, id);
    return found as Draft<ProjectEntry<K>>;
  }

  /** An entry a project holds, to change, or undefined (nothing recorded) when there is none. */
  entryIfAny<K extends ProjectCollection>(
    projectId: string,
    collection: K,
    id: string,
  ): Draft<ProjectEntry<K>> | undefined {
    const project = this.#state.projects[projectId];
    const found = project === undefined ? undefined : collectionOf(project, collection)?.[id];
    if (found !== undefined) this.#touch('projects', projectId, collection, id);
    return found as Draft<ProjectEntry<K>> | undefined;
  }

  /** Puts `value` under `id` in a project's collection (the project must exist). */
  put<K extends ProjectCollection>(
    projectId: string,
    collection: K,
    id: string,
    value: ProjectEntry<K>,
  ): void {
    const project = this.#state.projects[projectId];
    if (project === undefined) throw new Error(`no project ${projectId}`);
    let record = collectionOf(project, collection);
    if (record === undefined) (project as Writable)[collection] = record = {};
    record[id] = value;
    this.#touch('projects', projectId, collection, id);
  }

  /** Removes the entry under `id` from a project's collection, if there is one. */
  remove(projectId: string, collection: ProjectCollection, id: string): void {
    const project = this.#state.projects[projectId];
    const record = project === undefined ? undefined : collectionOf(project, collection);
    if (record === undefined || !(id in record)) return;
    delete record[id];
    this.#touch('projects', projectId, collection, id);
  }

  /** An entry of the state's own collections, to change, or undefined when there is none. */
  rootEntry<K extends RootCollection>(collection: K, id: string): Draft<RootEntry<K>> | undefined {
    const record = rootCollectionOf(this.#state, collection);
    const found = record === undefined ? undefined : entryOf(record, id);
    if (found !== undefined) this.#touch(collection, id);
    return found as Draft<RootEntry<K>> | undefined;
  }

  /** Puts `value` under `id` in one of the state's collections. */
  putRoot<K extends RootCollection>(collection: K, id: string, value: RootEntry<K>): void {
    let record = rootCollectionOf(this.#state, collection);
    if (record === undefined) (this.#state as Writable)[collection] = record = {};
    setEntry(record, id, value);
    this.#touch(collection, id);
  }

  /** Removes the entry under `id` from one of the state's collections, if there is one. */
  removeRoot(collection: RootCollection, id: string): void {
    const record = rootCollectionOf(this.#state, collection);
    if (record === undefined) return;
    deleteEntry(record, id);
    this.#touch(collection, id);
  }

  /** Counts connection `connectionId` among compute `endpointId`'s live ones. */
  addLive(endpointId: string, connectionId: string): void {
    const all = this.#state.liveConnections;
    let live = entryOf(all, endpointId);
    if (live === undefined) setEntry(all, endpointId, (live = emptyLike(all)));
    setEntry(live, connectionId, true);
    this.#touch('liveConnections', endpointId, connectionId);
  }

  /** No longer counts connection `connectionId` among compute `endpointId`'s live ones. */
  removeLive(endpointId: string, connectionId: string): void {
    const all = this.#state.liveConnections;
    const live = entryOf(all, endpointId);
    if (live === undefined) return;
    // The last one out drops its compute's collection whole: emptying a `Map` reallocates it.
    if (countOf(live) === 1) deleteEntry(all, endpointId);
    else deleteEntry(live, connectionId);
    this.#touch('liveConnections', endpointId, connectionId);
  }

  /** Forgets compute `endpointId`'s live connections (the compute is gone). */
  dropLive(endpointId: string): void {
    deleteEntry(this.#state.liveConnections, endpointId);
    this.#touch('liveConnections', endpointId);
  }

  /** Puts the profile in force from now on. */
  setProfile(profile: Profile): void {
    this.#state.profile = profile as Draft<Profile>;
    this.#touch('profile');
  }
}
