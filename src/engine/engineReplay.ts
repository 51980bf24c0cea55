/**
 * Rebuilding from the log: the check of the header a log must open with before an engine is replayed
 * from it, and the immer fold that rebuilds a past state from the snapshot before it (`stateAt`).
 */
import { createDraft, finishDraft, type Draft, type Objectish } from 'immer';
import type { Decider } from './decider.js';
import { LogFormatError } from './errors.js';
import type { EventLog } from './eventLog.js';
import {
  LOG_FORMAT,
  type EngineEvent,
  type LoggedEvent,
  type SimulationStarted,
} from './loggedEvent.js';
import { frozenCopy } from './publishSnapshot.js';
import type { SnapshotIndex } from './snapshotIndex.js';

/**
 * Reads the first event of a log to replay and checks it is a `SimulationStarted` at seq 0 in the
 * format this build reads; throws `LogFormatError` if not.
 */
export function replayHeader(iterator: Iterator<LoggedEvent>): Partial<SimulationStarted> {
  const first = iterator.next();
  if (first.done === true)
    throw new LogFormatError('the log is empty: it must start with SimulationStarted');
  const header = first.value as Partial<SimulationStarted>;
  if (header.type !== 'SimulationStarted' || header.seq !== 0) {
    throw new LogFormatError('the log must start with a SimulationStarted event at seq 0', 1);
  }
  if (header.format !== LOG_FORMAT) {
    throw new LogFormatError(
      `log format ${String(header.format)} is not supported (this build reads ${LOG_FORMAT})`,
      1,
    );
  }
  return header;
}

/**
 * The state after the events of `log` before `end`, as it stood at `t`: the latest snapshot at or
 * before `t` with the events after it evolved in on an immer draft.
 */
export function foldFromSnapshot<S, C, E extends LoggedEvent, T, R>(
  decider: Decider<S, C, E, T, R>,
  log: EventLog<E | EngineEvent>,
  snapshots: SnapshotIndex<S>,
  t: number,
  end: number,
): S {
  const snapshot = snapshots.latestAtOrBefore(t);
  if (snapshot === undefined) return frozenCopy(decider.initialState());
  if (end <= snapshot.seq + 1) return snapshot.state;
  const draft = draftOf(snapshot.state);
  for (let seq = snapshot.seq + 1; seq < end; seq++) {
    const event = log.get(seq) as E | EngineEvent;
    if (event.type !== 'ClockAdvanced') decider.evolve(draft, event as E);
  }
  return finishDraft(draft) as S;
}

/** Opens an immer draft of a state (immer's types cannot see that every state is an object). */
function draftOf<S>(state: S): Draft<S> {
  return createDraft(state as Objectish) as Draft<S>;
}
