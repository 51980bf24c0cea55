/**
 * The dashboard's heavy reads of a long run are built off the request path (issue 36, item 2):
 * while `GET /_sim/report` or `GET /_sim/view` is being made, or a first event stream's narrator
 * reads up to the log, a request sent after it is answered first, and the answer is the same as the
 * one-go renderers' (`run --html`'s report, `runProjections`, a narrator reading in order) of the
 * same log; so is one sent while a reader in another process takes the whole log as fast as it
 * comes (`GET /_sim/snapshot`), at a manual clock and at 600x with writes going on meanwhile (it is
 * the log as it was when asked for). Orders of completion only, no clocks.
 */
import { spawn } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { dashboardView, runProjections } from '../../src/dashboard/dashboardView.js';
import type { PlacedRequest } from '../../src/dashboard/runReportBuilder.js';
import { createNarrator } from '../../src/projection/narrator.js';
import { bodyMessages } from '../support/streamMessages.js';
import { htmlReport } from '../../src/report/html/htmlReport.js';
import type { TimelineEntry } from '../../src/scenario/timelineEntry.js';
import { Simulation } from '../../src/simulation/simulation.js';
import { KEY, serveOver } from '../support/transports.js';

const headers = { authorization: `Bearer ${KEY}` };

/**
 * A client in another process (argv: base URL, key) that reads the whole log as fast as it comes,
 * and once the log's headers are in, asks for a page of projects: it says how the small request
 * ended and how much of the log it had read by then, and the log's bytes and lines.
 */
const READ_FAST = `
const [base, key] = process.argv.slice(1);
const headers = { authorization: 'Bearer ' + key };
const response = await fetch(base + '/_sim/snapshot', { headers });
let bytes = 0;
let lines = 0;
let readWhenAnswered = -1;
const small = fetch(base + '/projects?limit=1', { headers }).then(async (r) => {
  await r.text();
  readWhenAnswered = bytes;
  return r.status;
});
for await (const chunk of response.body) {
  bytes += chunk.length;
  for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
}
const status = await small;
process.stdout.write(JSON.stringify({ status, readWhenAnswered, bytes, lines }));
`;

/** Runs `READ_FAST` against `base` and gives what it said. */
async function readLogBeside(base: string) {
  const client = spawn(process.execPath, ['--input-type=module', '-e', READ_FAST, base, KEY], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let said = '';
  client.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
  // 'close': the process has exited and its output has all been read.
  const code = await new Promise((resolve) => client.on('close', resolve));
  expect(code).toBe(0);
  return JSON.parse(said) as {
    status: number;
    readWhenAnswered: number;
    bytes: number;
    lines: number;
  };
}

/**
 * The oracle: the report `computesim run --html` renders for the run, its timeline the narrated log
 * with the requests in their places, made by that renderer in one go (not by the server's builder).
 */
function oneGoReport(sim: Simulation, requests: readonly PlacedRequest[]): string {
  const narrate = createNarrator();
  const timeline: TimelineEntry[] = [];
  let next = 0;
  const placeUpTo = (position: number) => {
    for (; next < requests.length && requests[next]!.position <= position; next++) {
      const r = requests[next]!;
      timeline.push({ at: r.at, kind: 'request', text: `${r.method} ${r.path}` });
      timeline.push({ at: r.at, kind: 'response', text: `→ ${r.status}`, status: r.status });
    }
  };
  for (const event of sim.log) {
    placeUpTo(event.seq);
    const text = narrate(event);
    if (text !== undefined) timeline.push({ at: event.at, kind: 'event', text });
  }
  placeUpTo(Infinity);
  return htmlReport(
    {
      name: 'computesim serve: the run so far',
      description:
        'What the served simulation did, from its first event to the moment of download.',
      seed: sim.seed,
      start: sim.log.get(0)?.at ?? sim.now(),
      end: sim.now(),
      passed: true,
      checks: 0,
      timeline,
      sim,
    },
    { verdict: false },
  );
}

describe('heavy reads of a long served run', () => {
  let served: Awaited<ReturnType<typeof serveOver>>;
  beforeEach(async () => {
    served = await serveOver('socket');
    for (let i = 0; i < 200; i++)
      await served.call('POST', '/projects', { project: { name: `p${i}` } });
    // Over 600,000 events: each read takes many slices to build.
    await served.call('POST', '/_sim/advance', { by: '3000d' });
    expect(served.server.sim.log.length).toBeGreaterThan(600_000);
  }, 30_000);

  /** `path`'s body, and the order in which it and a small request sent once it is under way ended. */
  async function readBeside(path: string) {
    const finished: string[] = [];
    const response = await fetch(`${served.base}${path}`, { headers });
    // Its headers are here, so it is under way: now a small request.
    const small = fetch(`${served.base}/projects?limit=1`, { headers }).then(async (r) => {
      await r.text();
      finished.push('projects');
      return r.status;
    });
    const body = await response.text();
    finished.push(path);
    expect(await small).toBe(200);
    return { response, body, finished };
  }

  it('answers a later request while the report is built, and it is the same report', async () => {
    const { sim, dashboard } = served.server;
    const expected = oneGoReport(sim, dashboard.feed.requests);
    const { response, body, finished } = await readBeside('/_sim/report');
    expect(finished).toEqual(['projects', '/_sim/report']);
    expect(response.headers.get('content-disposition')).toMatch(/attachment/);
    expect(body).toBe(expected);
  }, 30_000);

  it('answers a later request while the view is projected, and it is the same view', async () => {
    const sim = served.server.sim;
    const path = '/_sim/view?first=3&count=5';
    await readBeside(path);
    // The clock moves, so the view is projected again, not taken from before.
    await served.call('POST', '/_sim/advance', { by: '1s' });
    const { body, finished } = await readBeside(path);
    expect(finished).toEqual(['projects', path]);
    // Worked out after the read (the clock is manual: nothing moved since), so the test's own
    // projecting does not hold up the server meanwhile.
    const expected = dashboardView(runProjections(sim.log, sim.now()), sim.state, {
      first: 3,
      count: 5,
    });
    expect(JSON.parse(body)).toEqual({ ...expected, mode: 'manual' });
  }, 30_000);

  it('answers a later request while a first event stream reads up to the log, and tells the same lines', async () => {
    const { sim } = served.server;
    // Lines to tell at the end of the log (the idle years before it are mostly bookkeeping).
    await served.call('POST', '/projects', { project: { name: 'last' } });
    const finished: string[] = [];
    const response = await fetch(`${served.base}/_sim/events`, { headers });
    const small = fetch(`${served.base}/projects?limit=1`, { headers }).then(async (r) => {
      await r.text();
      finished.push('projects');
      return r.status;
    });
    // Every message up to the first clock message, which comes once the stream has been sent all.
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!bodyMessages(text).some((message) => message.event === 'clock')) {
      const next = await reader.read();
      if (next.done === true) throw new Error('the stream ended');
      text += decoder.decode(next.value, { stream: true });
    }
    finished.push('stream');
    expect(await small).toBe(200);
    expect(finished).toEqual(['projects', 'stream']);
    await reader.cancel();
    // The lines a narrator reading the whole log in order tells of the same events.
    const inOrder = createNarrator();
    const told = [...sim.log].map((event) => inOrder(event));
    const events = bodyMessages(text)
      .filter((message) => message.event === 'feed')
      .flatMap((message) => message.data as { text: string; seq?: number }[])
      .filter((item) => item.seq !== undefined);
    expect(events.some((item) => item.text.includes('"last" created'))).toBe(true);
    for (const item of events) expect(item.text).toBe(told[item.seq as number]);
  }, 30_000);

  it('answers a request while a fast reader in another process takes the whole log, and it is the whole log', async () => {
    const sim = served.server.sim;
    const { status, readWhenAnswered, bytes, lines } = await readLogBeside(served.base);
    expect({ bytes, lines }).toEqual({
      bytes: Buffer.byteLength(sim.log.toJSONL()),
      lines: sim.log.length,
    });
    expect(status).toBe(200);
    // Answered while most of the log was still to come: the log is made a piece a turn, so the
    // server does not make all of it before it reads the next request.
    expect(readWhenAnswered).toBeGreaterThanOrEqual(0);
    expect(readWhenAnswered).toBeLessThan(bytes / 2);
  }, 60_000);
});

describe('the whole log at a fast clock', () => {
  it('is the log as it was when asked for, while writes and the clock go on beside it', async () => {
    const sim = new Simulation({ seed: 5 });
    for (let i = 0; i < 200; i++) sim.request('POST', '/projects', { project: { name: `p${i}` } });
    sim.advance('3000d');
    const served = await serveOver('socket', { clock: { name: '600x', rate: 600 } }, sim);
    const before = sim.log.length;
    let reading = true;
    const read = readLogBeside(served.base).finally(() => (reading = false));
    let created = 0;
    while (reading) {
      const answer = await served.call('POST', '/projects', { project: { name: `w${created}` } });
      expect(answer.status).toBe(201);
      created++;
    }
    const { status, readWhenAnswered, bytes, lines } = await read;
    expect(status).toBe(200);
    expect(lines).toBeGreaterThanOrEqual(before);
    // Writes went on while it was sent, and it is a whole prefix of the log: no event of theirs.
    expect(sim.log.length).toBeGreaterThan(lines);
    expect(bytes).toBe(Buffer.byteLength([...sim.log.jsonLines(0, lines)].join('')));
    expect(readWhenAnswered).toBeLessThan(bytes / 2);
  }, 60_000);
});
