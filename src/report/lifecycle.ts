/**
 * A compute's lifecycle in the compact timeline notation, one character per time slot (a minute by
 * default), read from the event log. The alphabet, most important first when a slot holds several:
 *
 *   R  restarted: suspended and started again within the slot
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

const RANK: Readonly<Record<string, number>> = { '-': 0, '=': 0, c: 1, x: 2, S: 3, z: 3, R: 4 };

/** The lifecycle of `endpointId` as a notation string. */
export function lifecycleOf(
  log: Iterable<SimEvent>,
  endpointId: string,
  options: LifecycleOptions = {},
): string {
  const unit = parseDuration(options.unit ?? '1m');
  if (unit <= 0) throw new RangeError('lifecycle: the unit must be positive');
  const marks = new Map<number, string>();
  const changes: { at: number; active: boolean }[] = [];
  let first: number | undefined;
  let last = 0;
  const mark = (slotAt: number, char: string) => {
    const previous = marks.get(slotAt);
    if (previous === undefined || (RANK[char] ?? 0) > (RANK[previous] ?? 0))
      marks.set(slotAt, char);
    else if ((previous === 'S' && char === 'z') || (previous === 'z' && char === 'S'))
      marks.set(slotAt, 'R');
  };
  const events: SimEvent[] = [];
  for (const event of log) {
    first ??= event.at;
    last = Math.max(last, event.at);
    events.push(event);
  }
  const from = options.from ?? first ?? 0;
  const slotOf = (at: number) => Math.floor((at - from) / unit);
  for (const event of events) {
    if (!('endpointId' in event) || event.endpointId !== endpointId) continue;
    const slot = slotOf(event.at);
    switch (event.type) {
      case 'ComputeStateChanged': {
        const active = event.currentState === 'active';
        const before = changes.at(-1)?.active ?? false;
        if (active === before) break;
        changes.push({ at: event.at, active });
        mark(slot, active ? 'S' : 'z');
        break;
      }
      case 'ConnectionOpened':
        mark(slot, 'c');
        break;
      case 'ConnectionRefused':
      case 'ConnectionsDropped':
        mark(slot, 'x');
        break;
      default:
        break;
    }
  }
  const slots = options.slots ?? Math.max(0, slotOf(last) + 1);
  let text = '';
  let change = 0;
  let active = false;
  for (let slot = 0; slot < slots; slot++) {
    const slotEnd = from + (slot + 1) * unit;
    while (change < changes.length && (changes[change] as { at: number }).at < slotEnd)
      active = (changes[change++] as { active: boolean }).active;
    text += marks.get(slot) ?? (active ? '=' : '-');
  }
  return text;
}

/** Whether `actual` matches `expected`, where `?` in `expected` matches any one character. */
export function matchesLifecycle(actual: string, expected: string): boolean {
  if (actual.length !== expected.length) return false;
  for (let i = 0; i < expected.length; i++)
    if (expected[i] !== '?' && expected[i] !== actual[i]) return false;
  return true;
}
