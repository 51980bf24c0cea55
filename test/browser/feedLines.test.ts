/** The feed the page keeps: bounded, newest first, filtered by project (the page's notes always shown). */
import { describe, expect, it } from 'vitest';
import { FeedLines, LINES_KEPT, LINES_SHOWN, lineClass } from '../../src/browser/feedLines.js';
import type { FeedLine } from '../../src/browser/wire.js';

function line(n: number, projectId?: string): FeedLine {
  return {
    kind: 'event',
    at: n,
    type: 'ComputeActive',
    ...(projectId === undefined ? {} : { projectId }),
    text: `line ${n}`,
  };
}

describe('the feed', () => {
  it('shows the newest lines first, as many as fit, and keeps more for a change of filter', () => {
    const feed = new FeedLines();
    for (let n = 0; n < LINES_KEPT + 50; n++) feed.add(line(n, n % 2 === 0 ? 'p-even' : 'p-odd'));
    const shown = feed.shown();
    expect(shown).toHaveLength(LINES_SHOWN);
    expect(shown[0]?.text).toBe(`line ${LINES_KEPT + 49}`);
    feed.project = 'p-even';
    // Of the 500 newest lines kept, the 250 even ones: the screen shows the 200 newest of them.
    expect(feed.shown().map((l) => l.at)).toEqual(
      Array.from({ length: LINES_SHOWN }, (_, i) => LINES_KEPT + 48 - 2 * i),
    );
    feed.project = 'p-none';
    expect(feed.shown()).toEqual([]);
  });

  it("shows, under a project filter, that project's lines and the page's notes only", () => {
    const feed = new FeedLines();
    feed.project = 'p-1';
    expect(feed.add(line(1, 'p-1'))).toBe(true);
    expect(feed.add(line(2, 'p-2'))).toBe(false);
    expect(feed.add(line(3))).toBe(false);
    expect(feed.add({ kind: 'note', at: 4, text: '… 3 earlier events' })).toBe(true);
    expect(feed.shown().map((l) => l.at)).toEqual([4, 1]);
    feed.clear();
    expect(feed.shown()).toEqual([]);
  });

  it('marks requests answered with an error', () => {
    expect(lineClass({ kind: 'request', at: 0, type: '404', text: '' })).toBe('request failed');
    expect(lineClass({ kind: 'request', at: 0, type: '201', text: '' })).toBe('request');
    expect(lineClass({ kind: 'event', at: 0, type: 'OperationFailed', text: '' })).toBe('event');
  });
});
