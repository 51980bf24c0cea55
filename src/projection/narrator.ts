/**
 * Narration: one plain-English sentence per event, for demos, teaching and `replay`. A narrator
 * remembers what earlier events said (an operation's action) so later lines can name it.
 */
import type { OperationAction } from '../domain/operationAction.js';
import type { SimEvent } from '../model/events.js';
import { narrate } from '../model/eventMeanings.js';
import type { NarrationNames } from '../model/eventDeclaration.js';

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
    if (event.type === 'SimulationStarted') return `simulation started (seed ${event.seed})`;
    if (event.type === 'ClockAdvanced') return undefined;
    return narrate(event, names);
  };
  return tell;
}
