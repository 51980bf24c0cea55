/**
 * When the page draws its figures again: asks made during a drawing and the rest after it come to
 * one more drawing; the rest is four times what the drawing took, a quarter second at least.
 */
import { describe, expect, it } from 'vitest';
import { RedrawPacer } from '../../src/browser/redrawPacer.js';

/** A pacer on a hand-moved clock whose drawings take `took` ms each and end when `finish` is called. */
function pacer(took: number, fail = false) {
  let now = 0;
  const timers: { at: number; run: () => void }[] = [];
  const drawings: (() => void)[] = [];
  const failures: unknown[] = [];
  const paced = new RedrawPacer(
    () =>
      new Promise<void>((resolve, reject) =>
        drawings.push(() => {
          now += took;
          if (fail) reject(new Error('HTTP 500'));
          else resolve();
        }),
      ),
    (error) => failures.push(error),
    { now: () => now, later: (run, ms) => timers.push({ at: now + ms, run }) },
  );
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    paced,
    drawings,
    timers,
    failures,
    /** Ends the drawing under way, and lets the pacer see it. */
    finish: async () => {
      drawings.at(-1)?.();
      await settle();
    },
    /** Moves the clock to the next timer and runs it. */
    rest: () => {
      const timer = timers.shift();
      if (timer === undefined) throw new Error('no timer');
      now = timer.at;
      timer.run();
    },
  };
}

describe('redraw pacing', () => {
  it('draws once more for every ask made while it was busy, after a rest', async () => {
    const p = pacer(10);
    p.paced.request();
    expect(p.drawings).toHaveLength(1);
    p.paced.request();
    p.paced.request();
    await p.finish();
    expect(p.drawings).toHaveLength(1);
    expect(p.timers.map((t) => t.at)).toEqual([10 + 250]);
    p.paced.request();
    p.rest();
    expect(p.drawings).toHaveLength(2);
    await p.finish();
    p.rest();
    expect(p.drawings).toHaveLength(2);
    p.paced.request();
    expect(p.drawings).toHaveLength(3);
  });

  it('rests four times as long as a slow drawing took', async () => {
    const p = pacer(1_000);
    p.paced.request();
    await p.finish();
    expect(p.timers.map((t) => t.at)).toEqual([1_000 + 4_000]);
  });

  it('tells a failed drawing, and goes on pacing', async () => {
    const p = pacer(10, true);
    p.paced.request();
    await p.finish();
    expect(p.failures).toEqual([new Error('HTTP 500')]);
    p.rest();
    p.paced.request();
    expect(p.drawings).toHaveLength(2);
  });
});
