/**
 * A compute's lifecycle in the compact timeline notation, one character per time slot (a minute by
 * default), read from the event log. When a slot holds several things, the first that applies:
 *
 *   d  deleted (the compute, or its project)     .  no longer exists (until recovered: idle again)
 *   R  suspended and started again: up at the end of the slot after a restart
 *   b  briefly up: started and suspended again, down at the end of the slot
 *   S  started: became active          z  suspended: became idle
 *   x  a connection refused or dropped c  a connection opened
 *   =  active, nothing new             -  idle (or not created yet), nothing new
 *
 * `'S====z---c'`-style strings are easy to read in a terminal and to expect in a test
 * (`matchesLifecycle` takes `?` as "any character").
 */
import { parseDuration, type Duration } from '../core/duration.js';
import type { SimEvent } from '../model/events.js';

/** Where a lifecycle string starts, how long a slot is, and how many slots it shows. */
export interface LifecycleOptions {
  /** First slot's start, epoch ms (default: the first event of the log). */
  readonly from?: number;
  /** Length of a slot (default one minute). */
  readonly unit?: Duration;
  /** Number of slots (default: up to the last event of the log). */
  readonly slots?: number;
}

/** What happened to the compute within one slot. */
interface Slot {
  started: boolean;
  suspended: boolean;
  connected: boolean;
  refused: boolean;
  deleted: boolean;
}

/** The lifecycle of `endpointId` as a notation string. */
export function lifecycleOf(
  log: Iterable<SimEvent>,
  endpointId: string,
  options: LifecycleOptions = {},
): string {
  const unit = parseDuration(options.unit ?? '1m');
  if (unit <= 0) throw new RangeError('lifecycle: the unit must be positive');
  const slots = new Map<number, Slot>();
  const changes: { at: number; active: boolean }[] = [];
  /** When the compute was gone: from a deletion to its recovery (`to` absent: not recovered). */
  const gone: { from: number; to?: number }[] = [];
  const markGone = (at: number) => {
    gone.push({ from: at });
    slot(at).deleted = true;
    if (changes.at(-1)?.active === true) changes.push({ at, active: false });
  };
  let projectId: string | undefined;
  let first: number | undefined;
  let last = 0;
  const events: SimEvent[] = [];
  for (const event of log) {
    first ??= event.at;
    last = Math.max(last, event.at);
    events.push(event);
  }
  const from = options.from ?? first ?? 0;
  const slotOf = (at: number) => Math.floor((at - from) / unit);
  const slot = (at: number): Slot => {
    const n = slotOf(at);
    let found = slots.get(n);
    if (found === undefined)
      slots.set(
        n,
        (found = {
          started: false,
          suspended: false,
          connected: false,
          refused: false,
          deleted: false,
        }),
      );
    return found;
  };
  for (const event of events) {
    const last = gone.at(-1);
    const isGone = last !== undefined && last.to === undefined;
    if (event.type === 'ProjectDeleted' && event.projectId === projectId && !isGone) {
      markGone(event.at);
      continue;
    }
    if (
      (event.type === 'ProjectRecovered' || event.type === 'BranchRecovered') &&
      isGone &&
      event.endpointIds.includes(endpointId)
    ) {
      last.to = event.at;
      continue;
    }
    if (!('endpointId' in event) || event.endpointId !== endpointId) continue;
    switch (event.type) {
      case 'EndpointCreated':
        projectId = event.projectId;
        break;
      case 'EndpointDeleted':
        markGone(event.at);
        break;
      case 'ComputeStateChanged': {
        const active = event.currentState === 'active';
        if (active === (changes.at(-1)?.active ?? false)) break;
        changes.push({ at: event.at, active });
        if (active) slot(event.at).started = true;
        else slot(event.at).suspended = true;
        break;
      }
      case 'ConnectionOpened':
        slot(event.at).connected = true;
        break;
      case 'ConnectionRefused':
      case 'ConnectionsDropped':
        slot(event.at).refused = true;
        break;
      default:
        break;
    }
  }
  const count = options.slots ?? Math.max(0, slotOf(last) + 1);
  let text = '';
  let change = 0;
  let active = false;
  for (let n = 0; n < count; n++) {
    const slotStart = from + n * unit;
    const slotEnd = slotStart + unit;
    while (change < changes.length && (changes[change] as { at: number }).at < slotEnd)
      active = (changes[change++] as { active: boolean }).active;
    if (gone.some((g) => g.from < slotStart && (g.to === undefined || g.to >= slotEnd))) {
      text += '.';
      continue;
    }
    text += charOf(slots.get(n), active);
  }
  return text;
}

function charOf(slot: Slot | undefined, activeAtEnd: boolean): string {
  if (slot?.deleted === true) return 'd';
  if (slot?.started === true && slot.suspended) return activeAtEnd ? 'R' : 'b';
  if (slot?.started === true) return 'S';
  if (slot?.suspended === true) return 'z';
  if (slot?.refused === true) return 'x';
  if (slot?.connected === true) return 'c';
  return activeAtEnd ? '=' : '-';
}

/** Whether `actual` matches `expected`, where `?` in `expected` matches any one character. */
export function matchesLifecycle(actual: string, expected: string): boolean {
  if (actual.length !== expected.length) return false;
  for (let i = 0; i < expected.length; i++)
    if (expected[i] !== '?' && expected[i] !== actual[i]) return false;
  return true;
}
