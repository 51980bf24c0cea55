/**
 * Readers of `/_sim/events` that do not read (issue 36, item 1): the server holds a bounded buffer
 * for each, closes or drops one that falls behind, and lets go of everything once they are gone;
 * a reader that was cut off resumes from its last id with every line exactly once.
 */
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { STREAM_BUFFER_BYTES } from '../../src/http/dashboardFeed.js';
import type { SimServer } from '../../src/http/simServer.js';
import { Simulation } from '../../src/index.js';
import { pollUntil } from '../support/pollUntil.js';
import { readToEnd, stalledReader } from '../support/stalledReaders.js';
import { feedItems, streamMessages, type FeedItem } from '../support/streamMessages.js';
import { KEY, serveOver } from '../support/transports.js';

/** Feed lines from a stream read in process, until one reads `last`. */
async function feedUntil(server: SimServer, base: string, last: string, lastEventId?: string) {
  const response = await server.fetch(
    new Request(`${base}/_sim/events`, {
      headers: {
        authorization: `Bearer ${KEY}`,
        ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
      },
    }),
  );
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const items = await feedItems(reader).until(last);
  await reader.cancel();
  return items;
}

/**
 * A busy stretch: requests with long paths (about 256 KB of feed in all), the clock moving, then a
 * pause long enough for the feed to send them (it sends what is new every 50 ms).
 */
async function busy(server: SimServer, base: string, round: number): Promise<void> {
  const filler = 'x'.repeat(4_000);
  for (let i = 0; i < 64; i++)
    await server.fetch(
      new Request(`${base}/projects?round=${round}&i=${i}&filler=${filler}`, {
        headers: { authorization: `Bearer ${KEY}` },
      }),
    );
  await server.fetch(
    new Request(`${base}/_sim/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ by: '1m' }),
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 80));
}

/** Clocks the feed is held to its bound at: one that moves only when asked, and a fast one. */
const CLOCKS = [
  { name: 'manual', rate: 0 },
  { name: '600x', rate: 600 },
] as const;

/** A server with a few projects, so that the clock moving makes events. */
async function busyServer(clock: (typeof CLOCKS)[number] = CLOCKS[0]) {
  const served = await serveOver('socket', { clock }, new Simulation({ seed: 11 }));
  for (let i = 0; i < 4; i++)
    await served.call('POST', '/projects', { project: { name: `p${i}` } });
  return served;
}

describe('readers of the event stream that do not read', () => {
  it.each(CLOCKS)(
    'are held to a bounded buffer, then dropped, connection and all (clock $name)',
    async (clock) => {
      const { server, base } = await busyServer(clock);
      const accepted: Socket[] = [];
      server.server.on('connection', (socket) => accepted.push(socket));
      const feed = server.dashboard.feed;
      const reader = stalledReader(base, KEY);
      await pollUntil(
        () => feed.holding.open === 1,
        () => feed.holding,
      );
      let most = 0;
      const sample = () => (most = Math.max(most, ...feed.holding.queuedBytes));
      // Enough to fill the socket's buffers on both sides, then the stream's own.
      for (let round = 0; feed.holding.open === 1 && round < 200; round++) {
        await busy(server, base, round);
        sample();
      }
      await pollUntil(
        () => sample() >= 0 && accepted.every((socket) => socket.destroyed),
        () => ({
          holding: feed.holding,
          open: accepted.filter((socket) => !socket.destroyed).length,
        }),
      );
      // Never more than the bound and the one message that crossed it (16 KiB of text, one path).
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(STREAM_BUFFER_BYTES + 32 * 1024);
      expect(feed.holding).toEqual({ open: 0, closing: 0, queuedBytes: [], listening: false });
      reader.destroy();
    },
  );

  it('resumes a reader cut off from its last id with every line exactly once', async () => {
    const { server, base, call } = await busyServer();
    const feed = server.dashboard.feed;
    const reader = stalledReader(base, KEY);
    await pollUntil(
      () => feed.holding.open === 1,
      () => feed.holding,
    );
    for (let round = 0; feed.holding.open === 1 && round < 200; round++)
      await busy(server, base, round);
    expect(feed.holding.open).toBe(0);
    // It reads at last: what reached it, then `resync` (or the end, if it was dropped first).
    const first = streamMessages(await readToEnd(reader));
    const last = first.filter((message) => message.id !== undefined).at(-1)?.id;
    expect(last).toBeDefined();
    const ending = first.at(-1)?.event;
    expect(['resync', 'feed', 'clock']).toContain(ending);
    await busy(server, base, 1_000);
    await call('GET', '/_sim/clock');
    const rest = await feedUntil(server, base, 'GET /_sim/clock → 200', last);
    const pieced = [
      ...first.flatMap((message) => (message.event === 'feed' ? (message.data as FeedItem[]) : [])),
      ...rest,
    ];
    const whole = await feedUntil(server, base, 'GET /_sim/clock → 200');
    expect(pieced.length).toBe(whole.length);
    expect(pieced).toEqual(whole);
    // The log's events, each once and in order; every request answered, each once.
    const seqs = whole.flatMap((item) => (item.seq === undefined ? [] : [item.seq]));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(Math.max(...seqs)).toBeLessThan(server.sim.log.length);
    expect(whole.filter((item) => item.text.includes('→')).length).toBe(feed.requests.length);
  });

  it('leaves nothing held once its readers are gone', async () => {
    const { server, base } = await busyServer();
    const feed = server.dashboard.feed;
    const readers = [stalledReader(base, KEY), stalledReader(base, KEY), stalledReader(base, KEY)];
    await pollUntil(
      () => feed.holding.open === 3,
      () => feed.holding,
    );
    await busy(server, base, 0);
    expect(feed.holding.listening).toBe(true);
    for (const reader of readers) reader.destroy();
    await pollUntil(
      () => feed.holding.open + feed.holding.closing === 0,
      () => feed.holding,
    );
    expect(feed.holding).toEqual({ open: 0, closing: 0, queuedBytes: [], listening: false });
  });
});
