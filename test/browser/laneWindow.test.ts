/** The lanes on screen: sized to the window, moved within the lanes there are. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LaneWindow, laneRange } from '../../src/browser/laneWindow.js';

describe('the lane window', () => {
  it('holds as many lanes as half the window does, from 4 to 40', () => {
    const lanes = new LaneWindow();
    for (const [height, count] of [
      [100, 4],
      [816, 12],
      [1000, 14],
      [4000, 40],
    ] as const) {
      lanes.fit(height);
      expect(lanes.count).toBe(count);
    }
  });

  it('moves only within the lanes there are, saying whether it moved', () => {
    fc.assert(
      fc.property(
        fc.nat(300),
        fc.integer({ min: 4, max: 40 }),
        fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 20 }),
        (total, count, moves) => {
          const lanes = Object.assign(new LaneWindow(), { total, count });
          for (const by of moves) {
            const before = lanes.first;
            const moved = lanes.move(by);
            expect(moved).toBe(lanes.first !== before);
            expect(lanes.first).toBeGreaterThanOrEqual(0);
            expect(lanes.first).toBeLessThanOrEqual(Math.max(0, total - count));
          }
          expect(lanes.scrolls()).toBe(total > count);
        },
      ),
    );
    const lanes = Object.assign(new LaneWindow(), { total: 30, count: 12 });
    expect(lanes.move(100)).toBe(true);
    expect(lanes.first).toBe(18);
    expect(lanes.move(1)).toBe(false);
  });

  it('names the lanes on screen', () => {
    expect(laneRange({ first: 0, count: 0, total: 0 })).toBe('no computes yet');
    expect(laneRange({ first: 12, count: 12, total: 340 })).toBe('computes 13-24 of 340');
  });
});
