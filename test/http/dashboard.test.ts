/**
 * `serve`'s dashboard over a real socket: the page at `/` without a key, its data routes with the
 * control routes' key rules and JSON errors, the figures on screen, the report of the run so far,
 * and the event stream: a dropped stream resumes from its Last-Event-ID with nothing lost or
 * repeated, a reader that keeps up gets each line once and at most its buffer's worth before the
 * server turns to other work, and a stream of another simulation starts again.
 */
import { describe, expect, it } from 'vitest';
import { STREAM_BUFFER_BYTES } from '../../src/http/dashboardFeed.js';
import { Simulation } from '../../src/index.js';
import { feedItems } from '../support/streamMessages.js';
import { KEY, serveOver } from '../support/transports.js';

interface Message {
  readonly id: string | undefined;
  readonly event: string;
  // Parsed JSON: tests read the fields they expect.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly data: any;
}

/** An open event stream, read one message at a time. */
async function openStream(base: string, lastEventId?: string) {
  const abort = new AbortController();
  const response = await fetch(`${base}/_sim/events`, {
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (): Promise<Message> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (block.startsWith(':')) continue;
        const field = (name: string) =>
          block
            .split('\n')
            .find((line) => line.startsWith(`${name}: `))
            ?.slice(name.length + 2);
        return {
          id: field('id'),
          event: field('event') ?? 'message',
          data: JSON.parse(field('data') ?? 'null'),
        };
      }
      const chunk = await reader.read();
      if (chunk.done === true) throw new Error('the stream ended');
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  /** Feed messages until one holds an item whose text is `last`; their items, and the last id. */
  const feedUntil = async (last: string) => {
    const items: { text: string }[] = [];
    let id: string | undefined;
    for (;;) {
      const message = await next();
      if (message.event !== 'feed') continue;
      items.push(...message.data);
      id = message.id;
      if (items.some((item) => item.text === last)) return { items, id };
    }
  };
  return { next, feedUntil, drop: () => abort.abort() };
}

describe('the dashboard of serve', () => {
  it('serves its page at / without a key, and only GET and HEAD there', async () => {
    const { base } = await serveOver('socket');
    const origin = base.replace(/\/api\/v2$/, '');
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('id="advance-5m"');
    expect(html).not.toContain(KEY);
    const posted = await fetch(`${origin}/`, { method: 'POST', body: 'x' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    expect(await posted.json()).toMatchObject({ code: 'method_not_allowed' });
    const head = await fetch(`${origin}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    // Other paths are the core's, as before.
    const unknown = await fetch(`${origin}/index.html`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ message: expect.stringContaining('no route') });
  });

  it('answers its data routes only to a key that may control the simulation', async () => {
    const sim = new Simulation({ seed: 3 });
    const projectId = sim.request('POST', '/projects', { project: { name: 'own' } }).body.project
      .id as string;
    const { base } = await serveOver(
      'socket',
      {
        keys: [
          { key: KEY, kind: 'personal' },
          { key: 'project-key', kind: 'project', projectId },
        ],
      },
      sim,
    );
    for (const path of ['/_sim/events', '/_sim/view', '/_sim/report']) {
      const none = await fetch(`${base}${path}`);
      expect(none.status).toBe(401);
      expect(await none.json()).toMatchObject({ code: 'unauthorized' });
      const scoped = await fetch(`${base}${path}`, {
        headers: { authorization: 'Bearer project-key' },
      });
      expect(scoped.status).toBe(403);
      expect(await scoped.json()).toMatchObject({ code: 'forbidden' });
      const deleted = await fetch(`${base}${path}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect(deleted.status).toBe(405);
    }
    for (const query of ['first=-1', 'count=0', 'count=1000', 'first=x', 'project=']) {
      const bad = await fetch(`${base}/_sim/view?${query}`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ code: 'invalid_input' });
    }
  });

  it('draws the lanes on screen and sums up the rest by state', async () => {
    const { base, call } = await serveOver('socket');
    for (let i = 0; i < 9; i++) await call('POST', '/projects', { project: { name: `p${i}` } });
    await call('POST', '/_sim/advance', { by: '30s' });
    const view = (await call('GET', '/_sim/view?first=2&count=3')).body;
    expect(view.lanes).toMatchObject({ first: 2, count: 3, total: 9 });
    expect(view.lanes.figure.match(/<g class="lane">/g)).toHaveLength(3);
    expect(view.lanes.figure).toContain('computes 3-5 of 9 drawn; the other 6: 6 active');
    expect(view.metrics).toContain('<table class="metrics">');
    expect(view.projects).toHaveLength(9);
    const one = (await call('GET', `/_sim/view?project=${encodeURIComponent(view.projects[0].id)}`))
      .body;
    expect(one.lanes.total).toBe(1);
    // Asking past the end shows the last lanes instead of none.
    expect((await call('GET', '/_sim/view?first=50&count=4')).body.lanes.first).toBe(5);
    expect(base).toMatch(/^http:/);
  });

  it('gives the report of the run so far, with the requests in its timeline', async () => {
    const { call, base } = await serveOver('socket');
    await call('POST', '/projects', { project: { name: 'shop' } });
    await call('POST', '/_sim/advance', { by: '6m' });
    const response = await fetch(`${base}/_sim/report`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(response.headers.get('content-disposition')).toMatch(/attachment/);
    const html = await response.text();
    expect(html).toContain('<svg');
    expect(html).toContain('class="tl-request"');
    expect(html).toContain('POST /projects');
    expect(html).toContain('is idle');
    expect(html).not.toContain('expectations held');
  });

  it('resumes a dropped stream from its Last-Event-ID without losing or repeating a line', async () => {
    const { base, call, server } = await serveOver('socket', {}, new Simulation({ seed: 5 }));
    await call('POST', '/projects', { project: { name: 'before' } });
    const whole = await openStream(base);
    const dropped = await openStream(base);
    const first = await dropped.feedUntil('POST /projects → 201');
    await call('POST', '/_sim/advance', { by: '10s' });
    const second = await dropped.feedUntil('POST /_sim/advance → 200');
    dropped.drop();
    // While it is away: a new project, its computes started, then scaled to zero.
    await call('POST', '/projects', { project: { name: 'while away' } });
    await call('POST', '/_sim/advance', { by: '7m' });
    await call('GET', '/_sim/clock');
    const resumed = await openStream(base, second.id);
    const rest = await resumed.feedUntil('GET /_sim/clock → 200');
    const all = await whole.feedUntil('GET /_sim/clock → 200');

    const pieced = [...first.items, ...second.items, ...rest.items];
    expect(pieced).toEqual(all.items);
    // Every narrated event of the log and every request answered, each once.
    const seqs = all.items.flatMap((item) => ('seq' in item ? [item.seq] : []));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(all.items.filter((item) => item.text.includes('→')).map((i) => i.text)).toEqual([
      'POST /projects → 201',
      'POST /_sim/advance → 200',
      'POST /projects → 201',
      'POST /_sim/advance → 200',
      'GET /_sim/clock → 200',
    ]);
    expect(all.items.some((item) => item.text.endsWith('is idle'))).toBe(true);
    expect(Math.max(...(seqs as number[]))).toBeLessThan(server.sim.log.length);
    whole.drop();
    resumed.drop();
  });

  it('starts a stream again, with a reset, for another simulation', async () => {
    const { base, call } = await serveOver('socket');
    await call('POST', '/projects', { project: { name: 'old' } });
    const stale = await openStream(base, 'another-server-0.40.3');
    expect((await stale.next()).event).toBe('reset');
    const fromStart = await stale.next();
    expect(fromStart.data[0]).toMatchObject({ type: 'SimulationStarted', seq: 0 });
    stale.drop();

    const open = await openStream(base);
    await open.feedUntil('POST /projects → 201');
    await call('POST', '/_sim/reset', { seed: 9 });
    let message = await open.next();
    while (message.event !== 'reset') message = await open.next();
    const after = await open.feedUntil('POST /_sim/reset → 200');
    expect(after.items[0]).toMatchObject({ text: 'simulation started (seed 9)' });
    open.drop();
  });

  it('sends a reader that keeps up each line once, however many messages one change makes', async () => {
    const sim = new Simulation({ seed: 5 });
    for (let i = 0; i < 10; i++) sim.request('POST', '/projects', { project: { name: `p${i}` } });
    const { server, call } = await serveOver('fetch', {}, sim);
    const reader = server.dashboard.feed.open(null).getReader();
    const { items, until: readUntil } = feedItems(reader);
    await call('GET', '/_sim/clock');
    await readUntil('GET /_sim/clock → 200');
    // Over 200 lines in one go (a message holds 200 at most) but less than the stream's buffer:
    // they go out in one flush, the first message to the read waiting for it.
    const rest = readUntil('POST /_sim/advance → 200');
    await call('POST', '/_sim/advance', { by: '1d' });
    await rest;
    await call('POST', '/projects', { project: { name: 'after' } });
    await readUntil('POST /projects → 201');
    const seqs = items.flatMap((item) => (item.seq === undefined ? [] : [item.seq]));
    expect(seqs.length).toBeGreaterThan(300);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    await reader.cancel();
  });

  it('sends a reader that takes all at once no more than its buffer before other work has a turn', async () => {
    // Over 150 KB of lines waiting (the old feed narrated them all while the reader took them).
    const sim = new Simulation({ seed: 5 });
    for (let i = 0; i < 40; i++) sim.request('POST', '/projects', { project: { name: `p${i}` } });
    sim.advance('2d');
    const { server } = await serveOver('fetch', {}, sim);
    const reader = server.dashboard.feed.open(null).getReader();
    let bytes = 0;
    let atFirstTurn: number | undefined;
    setImmediate(() => (atFirstTurn = bytes));
    // A reader as quick as can be: every chunk taken at once, a read always waiting.
    let text = '';
    const decoder = new TextDecoder();
    while (!text.includes('event: clock')) {
      const next = await reader.read();
      if (next.done === true) throw new Error('the stream ended');
      bytes += next.value.byteLength;
      text = (text + decoder.decode(next.value, { stream: true })).slice(-512);
    }
    await reader.cancel();
    expect(bytes).toBeGreaterThan(2 * STREAM_BUFFER_BYTES);
    expect(atFirstTurn).toBeDefined();
    expect(atFirstTurn).toBeLessThanOrEqual(STREAM_BUFFER_BYTES + 32 * 1024);
  });
});
