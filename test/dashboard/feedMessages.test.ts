/**
 * The feed's shared messages: read from any cursor to the end they give every line once, in the
 * order of the log with each request before the event it was answered ahead of, and each message's
 * id is the cursor after it; streams at one cursor are handed the very same bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { FeedLineRing } from '../../src/dashboard/feedLineRing.js';
import { FeedMessages, type FeedPosition } from '../../src/dashboard/feedMessages.js';
import { FeedNarrator } from '../../src/dashboard/feedNarrator.js';
import { requestItem } from '../../src/dashboard/feedItem.js';
import type { PlacedRequest } from '../../src/dashboard/runReportBuilder.js';
import { createNarrator } from '../../src/projection/narrator.js';
import { bodyMessages } from '../support/streamMessages.js';

/** A log of a few hundred events, with requests (some with long paths) placed among them. */
function world(paths: readonly number[]) {
  const sim = new Simulation({ seed: 5 });
  for (const name of ['a', 'b', 'c']) sim.request('POST', '/projects', { project: { name } });
  sim.advance('12d');
  const events = [...sim.log];
  const told = createNarrator();
  const eventTexts = events.map((event) => told(event));
  const requests: PlacedRequest[] = paths
    .map((length, i) => ({
      method: 'GET',
      path: `/projects?i=${i}&pad=${'x'.repeat(length)}`,
      status: 200,
      at: 0,
      position: Math.floor((i * 7919) % (events.length + 1)),
    }))
    .sort((a, b) => a.position - b.position);
  /** Every line from `at` on, as a reader of everything would see them. */
  const expected = (at: FeedPosition) => {
    const lines: string[] = [];
    let req = at.req;
    const upTo = (position: number) => {
      while (req < requests.length && (requests[req] as PlacedRequest).position <= position)
        lines.push(requestItem(requests[req++] as PlacedRequest).text);
    };
    for (let seq = at.seq; seq < events.length; seq++) {
      upTo(seq);
      const text = eventTexts[seq];
      if (text !== undefined) lines.push(text);
    }
    upTo(events.length);
    return lines;
  };
  const read = (from: number, to: number) => sim.log.range(from, to);
  const messages = () =>
    new FeedMessages(new FeedLineRing(new FeedNarrator(read, Infinity), read, 64), 'e');
  return { end: events.length, requests, expected, messages };
}

/** Reads `messages` from `at` to the end: each line's text, and every message's bytes. */
function readAll(
  messages: FeedMessages,
  at: FeedPosition,
  end: number,
  requests: readonly PlacedRequest[],
) {
  const texts: string[] = [];
  const sent: Uint8Array[] = [];
  for (;;) {
    const message = messages.next(at, end, { kept: requests, dropped: 0 });
    if (message === undefined) return { texts, sent, at };
    expect(message.after.seq >= at.seq && message.after.req >= at.req).toBe(true);
    at = message.after;
    if (message.bytes === undefined) continue;
    sent.push(message.bytes);
    const [parsed] = bodyMessages(new TextDecoder().decode(message.bytes));
    expect(parsed?.id).toBe(`e.${at.seq}.${at.req}`);
    texts.push(...(parsed?.data as { text: string }[]).map((item) => item.text));
  }
}

describe('the feed messages', () => {
  it('give every line from any cursor once, in order, each message naming the cursor after it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20_000 }), { maxLength: 30 }),
        fc.nat(),
        fc.nat(),
        (paths, seqPick, reqPick) => {
          const { end, requests, expected, messages } = world(paths);
          const seq = seqPick % (end + 1);
          // A cursor a stream can have: the requests placed before its event sent, and maybe
          // some of those placed at it (a message may end among them).
          const sent = requests.filter((request) => request.position < seq).length;
          const placed = requests.filter((request) => request.position === seq).length;
          const at = { seq, req: sent + (reqPick % (placed + 1)) };
          const read = readAll(messages(), at, end, requests);
          expect(read.texts).toEqual(expected(at));
          expect(read.at).toEqual({ seq: end, req: requests.length });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('hand streams at one cursor the same bytes, made once', () => {
    const { end, requests, messages } = world([10, 30_000, 5]);
    const shared = messages();
    const first = readAll(shared, { seq: 0, req: 0 }, end, requests).sent;
    const second = readAll(shared, { seq: 0, req: 0 }, end, requests).sent;
    expect(first.length).toBeGreaterThan(2);
    expect(second).toHaveLength(first.length);
    second.forEach((bytes, i) => expect(bytes).toBe(first[i]));
  });

  it('send a request answered at the log end after a message kept from before it, once and in order', () => {
    const { end, requests, messages } = world([10, 20]);
    const shared = messages();
    const at = { seq: end - 40, req: requests.filter((r) => r.position < end - 40).length };
    const { texts: before } = readAll(shared, at, end, requests);
    expect(before.length).toBeGreaterThan(0);
    // A request answered at the end of the log after those messages were made and kept.
    const later = [
      ...requests,
      { method: 'GET', path: '/later', status: 200, at: 0, position: end },
    ];
    const { texts: after } = readAll(shared, at, end, later);
    expect(after).toEqual([...before, 'GET /later → 200']);
  });
});
