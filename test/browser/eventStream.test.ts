/**
 * The page's event stream against a scripted server: it resumes from the id of the last message it
 * took (after a drop, a `resync`, or a message it could not take), waits longer after a failed
 * connection than after an ended one, and stops for good when its key is refused.
 */
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/browser/apiClient.js';
import { EventStream } from '../../src/browser/eventStream.js';

/** A response whose body is `text` and then, with `open`, stays open. */
function body(text: string, open = false): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      start: (controller) => {
        controller.enqueue(new TextEncoder().encode(text));
        if (!open) controller.close();
      },
    }),
  );
}

const feed = (id: string, text: string) =>
  `id: ${id}\nevent: feed\ndata: ${JSON.stringify([{ kind: 'request', at: 0, text }])}\n\n`;

/**
 * Runs a stream whose n-th connection is answered `answers[n]`, until they run out; what it asked
 * with, took, showed and waited.
 */
async function run(answers: Response[], take: (text: string) => void = () => undefined) {
  const resumedFrom: (string | undefined)[] = [];
  const taken: string[] = [];
  const links: string[] = [];
  const waits: number[] = [];
  const refusals: string[] = [];
  const api = new ApiClient(
    '/api/v2',
    (message) => refusals.push(message),
    (url, init) => {
      const headers = init.headers as Record<string, string>;
      expect(url).toBe('/api/v2/_sim/events');
      expect(headers['authorization']).toBe('Bearer k');
      resumedFrom.push(headers['last-event-id']);
      return Promise.resolve(answers[resumedFrom.length - 1] as Response);
    },
  );
  api.key = 'k';
  const stream = new EventStream(
    api,
    {
      message: (event, data) => {
        for (const line of data as { text: string }[]) {
          take(line.text);
          taken.push(line.text);
        }
      },
      link: (how) => links.push(how),
      stopped: () => refusals.length > 0 || resumedFrom.length === answers.length,
    },
    (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  );
  await stream.run();
  return { resumedFrom, taken, links, waits, refusals, lastId: stream.lastId };
}

describe("the page's event stream", () => {
  it('takes nothing after a resync, and resumes from the last id it took', async () => {
    const seen = await run([
      body(
        feed('e.3.1', 'GET /a → 200') +
          'event: resync\ndata: {"reason":"behind"}\n\n' +
          feed('e.9.9', 'never taken'),
        true,
      ),
      body(feed('e.4.1', 'GET /b → 200')),
    ]);
    expect(seen.resumedFrom).toEqual([undefined, 'e.3.1']);
    expect(seen.taken).toEqual(['GET /a → 200', 'GET /b → 200']);
    expect(seen.lastId).toBe('e.4.1');
    expect(seen.waits).toEqual([200]);
    expect(seen.links).toEqual(['up', 'down', 'up']);
  });

  it('keeps its cursor on messages without an id, and resumes before a message it could not take', async () => {
    let retried = false;
    const seen = await run(
      [
        body(feed('e.1.0', 'one') + ': keep-alive\n\n' + feed('e.2.0', 'two')),
        body(feed('e.2.0', 'two')),
      ],
      (text) => {
        if (text === 'two' && !retried) {
          retried = true;
          throw new Error('not now');
        }
      },
    );
    expect(seen.resumedFrom).toEqual([undefined, 'e.1.0']);
    expect(seen.taken).toEqual(['one', 'two']);
    expect(seen.waits).toEqual([1_000]);
  });

  it('waits longer after a connection that failed, and goes on', async () => {
    const seen = await run([new Response('busy', { status: 503 }), body(feed('e.1.0', 'one'))]);
    expect(seen.waits).toEqual([1_000]);
    expect(seen.links).toEqual(['down', 'up']);
    expect(seen.taken).toEqual(['one']);
  });

  it('stops when its key is refused, telling why', async () => {
    const refused = Response.json({ message: 'no such key' }, { status: 401 });
    const seen = await run([refused, body(feed('e.1.0', 'never asked'))]);
    expect(seen.refusals).toEqual(['no such key']);
    expect(seen.resumedFrom).toHaveLength(1);
    expect(seen.links).toEqual([]);
  });
});
