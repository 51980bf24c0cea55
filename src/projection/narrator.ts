/**
 * Narration: one plain-English sentence per event, for demos, teaching and `replay`. A narrator
 * remembers what earlier events said (an operation's action) so later lines can name it.
 */
import { formatLsn } from '../domain/lsn.js';
import type { OperationAction } from '../domain/operationAction.js';
import type { SimEvent } from '../model/events.js';
import { DECLARED_NARRATE, isDeclared } from '../model/declaredEvents.js';
import type { NarrationNames } from '../model/eventDeclaration.js';
import { describeChanges, recoverable } from '../model/narrationWords.js';

type Narrate = (event: SimEvent, names: NarrationNames) => string | undefined;

/** Describes events in order (`undefined` for bookkeeping events with nothing to tell); one per log. */
export type Narrator = (event: SimEvent) => string | undefined;

/** How long a narrator remembers what it read. */
export interface NarratorOptions {
  /**
   * Events of the log an ended operation's action is remembered for after its end, for its lines
   * told again out of order (default 0: forgotten at its end, all a log told in order needs).
   */
  readonly rememberEndedFor?: number;
}

/**
 * A fresh narrator. It remembers the action of each operation under way (and of those ended in the
 * last `rememberEndedFor` events): what it holds is bounded by the operations under way, however
 * long the log. Only events told in order (each further on than any before) change what it
 * remembers; one told again behind them is told from what it remembers.
 */
export function createNarrator(options: NarratorOptions = {}): Narrator {
  const keep = options.rememberEndedFor ?? 0;
  const actions = new Map<string, OperationAction>();
  /** Operations ended and still remembered, in the order they ended, from `head` on. */
  const ended: { readonly id: string; readonly seq: number }[] = [];
  let head = 0;
  let furthest = -1;
  const operation = (id: string) => `operation ${actions.get(id) ?? id.slice(0, 8)}`;
  const remember = (event: SimEvent) => {
    if (event.seq <= furthest) return;
    furthest = event.seq;
    for (let first = ended[head]; first !== undefined && first.seq + keep < furthest;) {
      actions.delete(first.id);
      first = ended[++head];
    }
    if (head > 1024 && head * 2 > ended.length) {
      ended.splice(0, head);
      head = 0;
    }
    if (event.type === 'OperationCreated') actions.set(event.operationId, event.action);
    else if (
      event.type === 'OperationFinished' ||
      event.type === 'OperationErrored' ||
      event.type === 'OperationCancelled'
    )
      ended.push({ id: event.operationId, seq: event.seq });
  };
  const tell = (event: SimEvent) => {
    const line = lineOf(event);
    remember(event);
    return line;
  };
  const names: NarrationNames = { operation };
  const lineOf = (event: SimEvent): string | undefined => {
    if (isDeclared(event)) return (DECLARED_NARRATE[event.type] as Narrate)(event, names);
    switch (event.type) {
      case 'SimulationStarted':
        return `simulation started (seed ${event.seed})`;
      case 'ClockAdvanced':
        return undefined;
      case 'BranchCreated':
        return `branch ${event.branchId} "${event.name}"${event.isDefault ? ' (default)' : ''} created${event.parentId === undefined ? '' : ` from ${event.parentId}`}`;
      case 'BranchStateChanged':
        return `branch ${event.branchId} is ${event.currentState}`;
      case 'BranchDeleted':
        return `branch ${event.branchId} deleted${recoverable(event.at, event.recoverableUntil)}`;
      case 'BranchRecovered':
        return `branch ${event.branchId} recovered, its computes idle`;
      case 'BranchPurged':
        return `deleted branch ${event.branchId} is gone for good (its recovery window ended)`;
      case 'AvailabilityCheckScheduled':
        return undefined;
      case 'BranchUpdated':
        return `branch ${event.branchId} updated${event.name === undefined ? '' : `: named "${event.name}"`}${event.protected === undefined ? '' : event.protected ? ', protected' : ', unprotected'}`;
      case 'DefaultBranchSet':
        return `branch ${event.branchId} is the default branch (was ${event.previousId})`;
      case 'BranchPreserved':
        return `branch ${event.fromBranchId}'s previous state kept as branch ${event.branchId} "${event.name}"`;
      case 'BranchRestored':
        return `branch ${event.branchId} restored${event.parentId === undefined ? '' : ` from ${event.parentId}`} at LSN ${formatLsn(event.timelineStartLsn)}`;
      case 'RoleCreated':
        return `role "${event.name}" created on ${event.branchId}`;
      case 'RolePasswordReset':
        return `role "${event.name}" on ${event.branchId} got a new password`;
      case 'RoleDeleted':
        return `role "${event.name}" deleted from ${event.branchId}`;
      case 'DatabaseCreated':
        return `database "${event.name}" (owner "${event.ownerName}") created on ${event.branchId}`;
      case 'DatabaseUpdated':
        return `database "${event.name}" on ${event.branchId} updated: ${describeChanges(event.changes)}`;
      case 'DatabaseDeleted':
        return `database "${event.name}" deleted from ${event.branchId}`;
      default:
        return unreachable(event);
    }
  };
  return tell;
}

/** Makes a forgotten event type a compile error. */

function unreachable(event: never): never {
  throw new Error(`no narration for ${JSON.stringify(event)}`);
}
