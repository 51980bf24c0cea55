/**
 * Where a project's operations are: unfinished ones (and any a recovery brought back) in its
 * `operations` record, ended ones in the archive the working state carries. Snapshots and immer
 * drafts hold them all in the record; these functions read either alike.
 */
import { attachPublishedView, type PublishedView } from '../engine/publishedView.js';
import { EndedOperations, type EndedWindow } from './endedOperations.js';
import { workingCollection } from './workingMaps.js';
import { emptyState, type OperationState, type ProjectState, type SimState } from './state.js';

const ARCHIVE: unique symbol = Symbol('computesim.endedOperations');

/** The root of a working state and its projects carry the archive (not enumerable: never copied). */
type WithArchive = { readonly [ARCHIVE]?: EndedOperations };

/**
 * A new working state: empty, its connections and workloads in `Map`s, with an archive for the
 * operations that end.
 */
export function workingState(): SimState {
  const state = {
    ...emptyState(),
    connections: workingCollection(),
    liveConnections: workingCollection(),
    workloads: workingCollection(),
  } satisfies SimState;
  Object.defineProperty(state, ARCHIVE, { value: new EndedOperations() });
  return state;
}

/**
 * The archive of a working state or of one of its projects; `undefined` for a snapshot or a draft
 * (their records hold every operation).
 */
export function archiveOf(holder: SimState | ProjectState): EndedOperations | undefined {
  return (holder as WithArchive)[ARCHIVE];
}

/** Operation `id` of `project`, unfinished or ended (unless pruned). */
export function operationIn(project: ProjectState, id: string): OperationState | undefined {
  if (Object.hasOwn(project.operations, id)) return project.operations[id];
  return archiveOf(project)?.find(project.id, id);
}

/** Every operation `project` keeps, in the order they were created. */
export function operationsOf(project: ProjectState): readonly OperationState[] {
  const held = Object.values(project.operations);
  const archive = archiveOf(project);
  const window = archive?.window(project.id);
  if (archive === undefined || window === undefined) return held;
  return inCreationOrder(archive.operations(window), held);
}

/**
 * A page of `project`'s operations: the `limit` latest created before sort key `before`, latest
 * first.
 */
export function latestOperations(
  project: ProjectState,
  before: number,
  limit: number,
): OperationState[] {
  const page: OperationState[] = [];
  const held = Object.values(project.operations);
  for (let i = held.length - 1; i >= 0 && page.length < limit; i--) {
    const operation = held[i] as OperationState;
    if (operation.sortKey < before) page.push(operation);
  }
  const archive = archiveOf(project);
  const window = archive?.window(project.id);
  if (archive === undefined || window === undefined) return page;
  return [...page, ...archive.newestBefore(window, before, limit)]
    .sort((a, b) => b.sortKey - a.sortKey)
    .slice(0, limit);
}

/**
 * Links a new working project to the state's archive (nothing for a draft), and makes its
 * snapshots show its ended operations: each published copy gets an `operations` field that builds
 * the whole record (archived rows of that moment and the unfinished ones) the first time it is read.
 */
export function linkArchive(state: SimState, project: ProjectState): void {
  const archive = archiveOf(state);
  if (archive === undefined) return;
  Object.defineProperty(project, ARCHIVE, { value: archive, configurable: true });
  const view: PublishedView = {
    keys: OPERATIONS_KEY,
    define(published) {
      const held = published['operations'] as ProjectState['operations'];
      const window = archive.window(project.id);
      Object.defineProperty(published, SHOWN, { value: { held, window } satisfies Shown });
      if (window === undefined) return;
      let record: ProjectState['operations'] | undefined;
      Object.defineProperty(published, 'operations', {
        enumerable: true,
        get: () =>
          (record ??= recordOf(inCreationOrder(archive.operations(window), Object.values(held)))),
      });
    },
    current(published) {
      const shown = (published as { [SHOWN]?: Shown })[SHOWN];
      const now = archive.window(project.id);
      if (shown === undefined) return false;
      if (shown.window === undefined || now === undefined) return shown.window === now;
      return (
        shown.window.list === now.list &&
        shown.window.start === now.start &&
        shown.window.end === now.end
      );
    },
    underlying(published) {
      return (published as { [SHOWN]?: Shown })[SHOWN]?.held;
    },
  };
  attachPublishedView(project, view);
}

/** A frozen record of operations by id, in the given order. */
export function recordOf(operations: readonly OperationState[]): ProjectState['operations'] {
  const record: Record<string, OperationState> = {};
  for (const operation of operations) record[operation.id] = operation;
  return Object.freeze(record);
}

const OPERATIONS_KEY: ReadonlySet<string> = new Set(['operations']);

/** What a published project shows: its unfinished operations and the archived rows of the moment. */
interface Shown {
  readonly held: ProjectState['operations'];
  readonly window: EndedWindow | undefined;
}
const SHOWN: unique symbol = Symbol('computesim.shownOperations');

/** Two lists merged by sort key (the creation order; each list may be in any order). */
function inCreationOrder(
  ended: readonly OperationState[],
  held: readonly OperationState[],
): OperationState[] {
  return [...ended, ...held].sort((a, b) => a.sortKey - b.sortKey);
}
