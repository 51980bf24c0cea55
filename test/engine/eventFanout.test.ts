import { config } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventFanout } from '../../src/engine/eventFanout.js';

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

  it('ends a subscriber on unsubscribe without completing it', () => {
    const fanout = new EventFanout<number>();
    const seen: number[] = [];
    const subscription = fanout.observable.subscribe({
      next: (value) => seen.push(value),
      complete: () => seen.push(-1),
    });
    fanout.emit(1);
    subscription.unsubscribe();
    fanout.emit(2);
    expect(seen).toEqual([1]);
  });
});
