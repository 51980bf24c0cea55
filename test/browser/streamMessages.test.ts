/** What each message of the event stream does to the page. */
import { describe, expect, it } from 'vitest';
import { applyMessage, type PageUpdates } from '../../src/browser/streamMessages.js';

/** A page that writes down what it was told. */
function page(): PageUpdates & { told: unknown[] } {
  const told: unknown[] = [];
  return {
    told,
    addLine: (line) => told.push(['line', line.kind, line.text]),
    clock: (news) => told.push(['clock', news]),
    reset: () => told.push(['reset']),
  };
}

describe('stream messages', () => {
  it('add feed lines in the order sent, move the clock, and start the feed again on a reset', () => {
    const p = page();
    const lines = [
      { kind: 'event', at: 1, type: 'ProjectCreated', text: 'project p-1 created' },
      { kind: 'request', at: 1, type: '201', text: 'POST /projects → 201' },
    ];
    applyMessage('feed', lines, p);
    applyMessage('clock', { now: 5, mode: 'manual', events: 16 }, p);
    applyMessage('reset', {}, p);
    expect(p.told).toEqual([
      ['line', 'event', 'project p-1 created'],
      ['line', 'request', 'POST /projects → 201'],
      ['clock', { now: 5, mode: 'manual', events: 16 }],
      ['reset'],
    ]);
  });

  it('note what a stream that started far behind was not sent', () => {
    const p = page();
    applyMessage('skipped', { at: 7, events: 120, requests: 3 }, p);
    expect(p.told).toEqual([
      ['line', 'note', '… 120 earlier events and 3 requests not sent (the report has them all)'],
    ]);
  });

  it('do nothing for events the page does not know', () => {
    const p = page();
    applyMessage('message', { something: 1 }, p);
    expect(p.told).toEqual([]);
  });
});
