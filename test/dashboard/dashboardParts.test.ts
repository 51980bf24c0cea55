/**
 * The dashboard's pure parts: stream cursors read back what they wrote and refuse anything else;
 * the shared narrator tells an event the same whether a reader is ahead of it or behind, and the
 * shared feed lines are those lines, whatever the order of asking and however small their ring;
 * request lines name their project.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { FeedLineRing } from '../../src/dashboard/feedLineRing.js';
import { FeedNarrator } from '../../src/dashboard/feedNarrator.js';
import { eventItem, requestItem } from '../../src/dashboard/feedItem.js';
import { formatCursor, parseCursor } from '../../src/dashboard/streamCursor.js';
import { createNarrator } from '../../src/projection/narrator.js';

describe('stream cursors', () => {
  it('read back what they wrote', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
        fc.nat(),
        fc.nat(),
        (epoch, seq, req) => {
          expect(parseCursor(formatCursor({ epoch, seq, req }))).toEqual({ epoch, seq, req });
        },
      ),
    );
  });

  it('name no position for anything else', () => {
    for (const text of [null, '', 'x', 'a.1', 'a.1.2.3', 'a.-1.2', 'a b.1.2', 'a.1e3.2', 'é.1.2'])
      expect(parseCursor(text)).toBeUndefined();
  });
});

/** Ten minutes of two projects: a log to narrate, and each event's line as told in order. */
function twoProjects() {
  const sim = new Simulation({ seed: 11 });
  for (const name of ['a', 'b']) sim.request('POST', '/projects', { project: { name } });
  sim.advance('10m');
  const events = [...sim.log];
  const inOrder = createNarrator();
  return { sim, events, told: events.map((e) => inOrder(e)) };
}

describe('the feed narrator', () => {
  it('tells each event as a narrator reading the log in order does, in any order of asking within its window', () => {
    const { sim, events, told: expected } = twoProjects();
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.array(fc.nat(events.length - 1), { maxLength: 40 }),
        (window, asks) => {
          const feed = new FeedNarrator((from, to) => sim.log.range(from, to), window);
          let furthest = 0;
          for (const seq of asks) {
            const line = feed.narrate(events[seq]!);
            if (seq >= furthest - window) expect(line).toBe(expected[seq]);
            furthest = Math.max(furthest, seq);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('forgets an ended operation once it is further behind than its window', () => {
    const { sim, events, told: expected } = twoProjects();
    const started = events.findIndex((event) => event.type === 'OperationStarted');
    const operationId = (events[started] as { operationId: string }).operationId;
    const end = events.findIndex(
      (event) => event.type === 'OperationFinished' && event.operationId === operationId,
    );
    expect(end).toBeGreaterThan(started);
    expect(expected[started]).not.toContain(operationId.slice(0, 8));
    const feed = new FeedNarrator((from, to) => sim.log.range(from, to), 3);
    feed.narrate(events[end + 3]!);
    expect(feed.narrate(events[started]!)).toBe(expected[started]);
    feed.narrate(events[end + 4]!);
    expect(feed.narrate(events[started]!)).toContain(operationId.slice(0, 8));
  });
});

describe('the shared feed lines', () => {
  it('are the narrated events as JSON, whatever the order of asking and the size of the ring', () => {
    const { sim, events, told } = twoProjects();
    const expected = events.map((e, seq) => {
      const text = told[seq];
      return text === undefined ? null : { json: JSON.stringify(eventItem(e, text)) };
    });
    const read = (from: number, to: number) => sim.log.range(from, to);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.nat(events.length - 1), { maxLength: 40 }),
        (capacity, asks) => {
          const lines = new FeedLineRing(new FeedNarrator(read, events.length), read, capacity);
          for (const seq of asks) expect(lines.event(seq, events.length)).toEqual(expected[seq]);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('request lines', () => {
  it('name the project of a project path, and none otherwise', () => {
    const at = 0;
    expect(
      requestItem({ method: 'GET', path: '/projects/p%2D1/branches', status: 200, at }),
    ).toMatchObject({
      projectId: 'p-1',
      text: 'GET /projects/p%2D1/branches → 200',
      type: '200',
    });
    expect(
      requestItem({ method: 'GET', path: '/projects?limit=1', status: 200, at }).projectId,
    ).toBeUndefined();
    expect(requestItem({ method: 'GET', path: '/projects/%E0', status: 400, at }).projectId).toBe(
      '%E0',
    );
  });
});
