/**
 * The compute activity projection on a hand-written log: when a compute counts as active, at what
 * CU, the CU-time that adds up to, its state spans, and the fleet levels.
 */
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../src/model/events.js';
import { ComputeActivity } from '../../src/projection/computeActivity.js';

const created = (at: number, endpointId: string, projectId: string, minCu: number) =>
  ({
    type: 'EndpointCreated',
    at,
    seq: at,
    projectId,
    endpointId,
    branchId: 'br',
    endpointType: 'read_write',
    minCu,
    maxCu: 4,
  }) as unknown as SimEvent;
const state = (at: number, endpointId: string, currentState: string) =>
  ({
    type: 'ComputeStateChanged',
    at,
    seq: at,
    projectId: 'p',
    endpointId,
    currentState,
  }) as SimEvent;
const resized = (at: number, endpointId: string, fromCu: number, toCu: number) =>
  ({ type: 'ComputeResized', at, seq: at, projectId: 'p', endpointId, fromCu, toCu }) as SimEvent;

describe('compute activity', () => {
  it('counts active time and CU-time from start to suspend, through resizes, and spans by state', () => {
    const activity = new ComputeActivity({ spans: true });
    const log = [
      created(0, 'a', 'p', 0.5),
      state(1_000, 'a', 'active'),
      resized(3_000, 'a', 0.5, 2),
      state(4_000, 'a', 'active'), // no change: already active
      state(5_000, 'a', 'idle'),
      resized(6_000, 'a', 2, 1), // while idle: counted as a resize, no CU-time
      state(7_000, 'a', 'active'), // starts again at its minimum
    ];
    const levels: [number, number][] = [];
    for (const event of log) {
      activity.apply(event);
      levels.push([activity.activeComputes, activity.totalCu]);
    }
    expect(levels).toEqual([
      [0, 0],
      [1, 0.5],
      [1, 2],
      [1, 2],
      [0, 0],
      [0, 0],
      [1, 0.5],
    ]);
    activity.finish(9_000);
    const a = activity.get('a')!;
    // Active 1-5 s and 7-9 s: 6 s; CU-time 2 s × 0.5 + 2 s × 2 + 2 s × 0.5 = 6 CU·s.
    expect(a.activeMs).toBe(6_000);
    expect(a.cuMs).toBe(6_000);
    expect([a.starts, a.suspends, a.resizes, a.startedAt]).toEqual([2, 1, 2, 7_000]);
    expect(a.spans).toEqual([
      { from: 0, to: 1_000, state: 'init' },
      { from: 1_000, to: 5_000, state: 'active' },
      { from: 5_000, to: 7_000, state: 'idle' },
      { from: 7_000, to: 9_000, state: 'active' },
    ]);
  });

  it('stops counting a deleted compute (not a suspend) and ends its spans, project by project', () => {
    const activity = new ComputeActivity({ spans: true });
    for (const event of [
      created(0, 'a', 'p', 1),
      created(0, 'b', 'q', 0.25),
      state(1_000, 'a', 'active'),
      state(1_000, 'b', 'active'),
      { type: 'ProjectDeleted', at: 2_000, seq: 9, projectId: 'p' } as SimEvent,
    ])
      activity.apply(event);
    expect([activity.activeComputes, activity.totalCu]).toEqual([1, 0.25]);
    activity.finish(4_000);
    const a = activity.get('a')!;
    expect([a.ended, a.active, a.activeMs, a.suspends]).toEqual([true, false, 1_000, 0]);
    expect(a.spans.at(-1)).toEqual({ from: 1_000, to: 2_000, state: 'active' });
    expect(activity.get('b')!.cuMs).toBe(750);
    expect([...activity.computes()].map((c) => c.endpointId)).toEqual(['a', 'b']);
  });
});
