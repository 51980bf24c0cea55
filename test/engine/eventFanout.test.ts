import { config, Subject, take, type Observable } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventFanout } from '../../src/engine/eventFanout.js';

/** What a script sees of an event source: its values as an Observable, and a way to emit one. */
interface Source {
  readonly values: Observable<number>;
  emit(value: number): void;
}

/**
 * Subscribers that re-enter, unsubscribe themselves and each other, subscribe others mid-value and
 * observe partially; returns what each saw, in order.
 */
function script(source: Source): string[] {
  const seen: string[] = [];
  const a = source.values.subscribe((value) => {
    seen.push(`a${value}`);
    if (value === 1) source.emit(2);
    if (value === 3) a.unsubscribe();
  });
  source.values.subscribe({
    next: (value) => {
      seen.push(`b${value}`);
      if (value === 2) source.values.subscribe((late) => seen.push(`late${late}`));
    },
  });
  source.values.pipe(take(2)).subscribe({
    next: (value) => seen.push(`take${value}`),
    complete: () => seen.push('take:done'),
  });
  source.values.subscribe({ complete: () => seen.push('never') });
  for (const value of [1, 3, 4]) source.emit(value);
  return seen;
}

describe('EventFanout', () => {
  const reported: unknown[] = [];
  beforeAll(() => {
    config.onUnhandledError = (error) => reported.push(error);
  });
  afterEach(() => {
    reported.length = 0;
  });
  afterAll(() => {
    config.onUnhandledError = null;
  });

  it('delivers what a Subject delivers, re-entered and unsubscribed mid-value included', () => {
    const subject = new Subject<number>();
    const fanout = new EventFanout<number>();
    const expected = script({ values: subject.asObservable(), emit: (v) => subject.next(v) });
    const actual = script({ values: fanout.observable, emit: (v) => fanout.emit(v) });
    expect(expected).toContain('late3');
    expect(actual).toEqual(expected);
  });

  it('hands every value to every subscriber, in the order they subscribed', () => {
    const fanout = new EventFanout<number>();
    const seen: string[] = [];
    fanout.observable.subscribe((value) => seen.push(`a${value}`));
    fanout.observable.subscribe((value) => seen.push(`b${value}`));
    fanout.emit(1);
    fanout.emit(2);
    expect(seen).toEqual(['a1', 'b1', 'a2', 'b2']);
  });

  it('is observed only while someone is subscribed', () => {
    const fanout = new EventFanout<number>();
    expect(fanout.observed).toBe(false);
    const subscription = fanout.observable.subscribe(() => undefined);
    expect(fanout.observed).toBe(true);
    subscription.unsubscribe();
    expect(fanout.observed).toBe(false);
  });

  it('gives a subscriber added during a value the values after it, as a Subject does', () => {
    const fanout = new EventFanout<number>();
    const late: number[] = [];
    let added = false;
    fanout.observable.subscribe(() => {
      if (added) return;
      added = true;
      fanout.observable.subscribe((value) => late.push(value));
    });
    fanout.emit(1);
    fanout.emit(2);
    expect(late).toEqual([2]);
  });

  it('stops at once for a subscriber unsubscribed by another during a value', () => {
    const fanout = new EventFanout<number>();
    const second: number[] = [];
    const first = fanout.observable.subscribe(() => victim.unsubscribe());
    const victim = fanout.observable.subscribe((value) => second.push(value));
    fanout.emit(1);
    fanout.emit(2);
    first.unsubscribe();
    expect(second).toEqual([]);
    expect(fanout.observed).toBe(false);
  });

  it('reports a throwing subscriber through rxjs and goes on with the others', async () => {
    const fanout = new EventFanout<number>();
    const after: number[] = [];
    fanout.observable.subscribe(() => {
      throw new Error('subscriber broke');
    });
    fanout.observable.subscribe((value) => after.push(value));
    expect(() => fanout.emit(1)).not.toThrow();
    expect(after).toEqual([1]);
    // rxjs reports it on a later task, as it does for a Subject's subscriber
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reported).toHaveLength(1);
    expect((reported[0] as Error).message).toBe('subscriber broke');
  });
});
