/**
 * The HTTP server under what goes wrong around it: a state file that cannot be written, malformed
 * URLs, rate limits and internal failures (each through the core's `fetch` and over a socket), and,
 * socket-only by nature, oversized and malformed HTTP and shutdown with keep-alive connections open.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { StateFile } from '../../src/http/stateFile.js';
import { replayLogFile } from '../../src/logfiles/replayLogFile.js';
import type { SimServerOptions } from '../../src/http/simServer.js';
import { KEY, serveOver, TRANSPORTS } from '../support/transports.js';

/** The socket-only cases: a served simulation on a free loopback port. */
const serve = (options: Partial<SimServerOptions> = {}) => serveOver('socket', options);

describe.each(TRANSPORTS)('a state file that cannot be written (%s)', (transport) => {
  const serve = (options: Parameters<typeof serveOver>[1]) => serveOver(transport, options);
  it('answers 503, acknowledges nothing, and keeps the state the file holds', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'computesim-broken-')), 'events.jsonl');
    const { call, server } = await serve({ stateFile: StateFile.open(path) });
    const kept = await call('POST', '/projects', { project: { name: 'kept' } });
    expect(kept.status).toBe(201);
    const durable = readFileSync(path, 'utf8');
    const events = server.sim.log.length;

    rmSync(path);
    mkdirSync(path); // every write to the file now fails
    const lost = await call('POST', '/projects', { project: { name: 'lost' } });
    expect(lost.status).toBe(503);
    expect(lost.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(JSON.stringify(lost.body)).not.toMatch(/\n\s+at /);
    expect(server.sim.log.length).toBe(events);
    const listed = await call('GET', '/projects');
    expect(listed.status).toBe(200);
    const names = (listed.body?.['projects'] as { name: string }[]).map((p) => p.name);
    expect(names).toEqual(['kept']);
    // While the file still cannot be written, writes are refused before they run: no replay each.
    const rolledBack = server.sim;
    const refused = await call('POST', '/projects', { project: { name: 'refused' } });
    expect(refused.status).toBe(503);
    expect(refused.body?.['message']).toMatch(
      /only reads are served until it can; nothing was changed/,
    );
    expect(server.sim).toBe(rolledBack);

    rmSync(path, { recursive: true });
    writeFileSync(path, durable); // the disk recovers
    const later = await call('POST', '/projects', { project: { name: 'later' } });
    expect(later.status).toBe(201);
    const replayed = replayLogFile(path).simulation;
    expect(replayed?.state).toEqual(server.sim.state);
    expect(Object.values(replayed?.state.projects ?? {}).map((p) => p.name)).toEqual([
      'kept',
      'later',
    ]);
  });

  it('answers 503 to a reset it cannot write, and keeps serving the old simulation', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'computesim-broken-')), 'events.jsonl');
    const { call, server } = await serve({ stateFile: StateFile.open(path) });
    await call('POST', '/projects', { project: { name: 'kept' } });
    const before = server.sim;
    mkdirSync(`${path}.next`); // the atomic rewrite cannot write its temporary file
    const reset = await call('POST', '/_sim/reset', { seed: 9 });
    expect(reset.status).toBe(503);
    expect(server.sim).toBe(before);
    expect(replayLogFile(path).simulation?.state).toEqual(server.sim.state);
  });
});

describe('a state file taken away or cut short (found by review)', () => {
  it('answers 503 when the state file was removed, instead of starting a new file mid-log', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'computesim-removed-')), 'events.jsonl');
    const { call } = await serve({ stateFile: StateFile.open(path) });
    expect((await call('POST', '/projects', { project: { name: 'kept' } })).status).toBe(201);
    const durable = readFileSync(path);
    rmSync(path);
    expect((await call('POST', '/projects', { project: { name: 'lost' } })).status).toBe(503);
    expect(existsSync(path)).toBe(false);
    writeFileSync(path, durable); // put back
    expect((await call('POST', '/projects', { project: { name: 'later' } })).status).toBe(201);
    const names = Object.values(replayLogFile(path).simulation?.state.projects ?? {}).map(
      (p) => p.name,
    );
    expect(names).toEqual(['kept', 'later']);
  });

  it('starts afresh on a file holding only its first line, and frees the lock when a start fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'computesim-first-line-'));
    const path = join(dir, 'events.jsonl');
    const io = { out: () => undefined, err: vi.fn(), writeFile: () => undefined };
    const failed = await main(
      ['serve', '--port', '0', '--state-file', path, '--scenario', join(dir, 'missing.ts')],
      io,
    );
    expect(failed).toBe(1);
    expect(existsSync(`${path}.lock`)).toBe(false);
    const opened = StateFile.open(path); // only the first line: a new simulation, no refusal
    opened.close();
    expect(opened.simulation).toBeUndefined();
  });

  it('refuses nothing with a 500 when run_until_idle is given a span past the year 9999', async () => {
    const { call } = await serve();
    const answer = await call('POST', '/_sim/run_until_idle', { within: '4000000d' });
    expect(answer.status).toBe(200);
  });
});

describe.each(TRANSPORTS)('malformed requests (%s)', (transport) => {
  it('answers 400 invalid_input to a malformed percent-encoding in the path', async () => {
    const { call } = await serveOver(transport);
    // API routes answer with the real service's empty code; control routes keep computesim's.
    for (const [path, code] of [
      ['/projects/%ZZ', ''],
      ['/projects/p-1/branches/%E0%A4%A', ''],
      ['/_sim/connections/%', 'invalid_input'],
    ]) {
      const response = await call('GET', path as string);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code, message: expect.any(String) });
    }
    expect((await call('GET', '/projects')).status).toBe(200);
  });
});

describe('computesim serve command line', () => {
  const bad = [
    ['--host', ''],
    ['--host', '  '],
    ['--port', '65536'],
    ['--port=-1'],
    ['--port', '1.5'],
    ['--port', 'http'],
    ['--port', ''],
    ['--api-key', ''],
    ['--api-key', 'ok', '--api-key', ''],
  ];
  it.each(bad)('refuses %j with one line and exit code 2', async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['serve', ...args], {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      writeFile: () => undefined,
    });
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^computesim: --(host|port|api-key)/);
    expect(err[0]).not.toMatch(/\n/);
  });
});

/** Sends `raw` on a new connection to `base`'s host and port; resolves to all it reads back. */
function rawExchange(base: string, raw: string): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
    socket.write(raw);
  });
}

/** A DELETE through node's http.request with `body` written and no length given; its answer. */
function deleteWithBody(
  url: string,
  agent: Agent | false,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, {
      method: 'DELETE',
      agent,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    });
    sent.on('error', reject);
    sent.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    sent.end(body);
  });
}

function parseRaw(text: string) {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('oversized and malformed HTTP', () => {
  it('answers a body over 1 MiB with 413 JSON and closes the connection', async () => {
    const { base } = await serve();
    const large = 'x'.repeat(1024 * 1024 + 1);
    for (const framing of [
      `Content-Length: ${large.length}\r\n\r\n${large}`,
      `Transfer-Encoding: chunked\r\n\r\n${large.length.toString(16)}\r\n${large}\r\n0\r\n\r\n`,
    ]) {
      const text = await rawExchange(
        base,
        `POST /api/v2/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\n` +
          `Content-Type: application/json\r\n${framing}`,
      );
      const answer = parseRaw(text);
      expect(answer.status).toBe(413);
      expect(answer.headers['connection']).toBe('close');
      expect(JSON.parse(answer.body)).toMatchObject({
        code: '',
        message: expect.any(String),
        request_id: expect.any(String),
      });
    }
  });

  // What node's http.request sends for a DELETE given a body and no length: the body after the
  // head, unframed. The server reads a DELETE without a body, then the body as the next request.
  it('answers a DELETE sent with an unframed body with its own answer, not a 400 for the body', async () => {
    const { call, base } = await serve();
    const keepAlive = new Agent({ keepAlive: true });
    try {
      // Kept alive, the body is a request that does not parse (HPE_INVALID_METHOD); with
      // Connection: close, bytes after the last request (HPE_CLOSED_CONNECTION).
      for (const agent of [keepAlive, false] as const) {
        const id = (await call('POST', '/projects', { project: {} })).body.project.id as string;
        const answer = await deleteWithBody(`${base}/projects/${id}`, agent, '{"reason":"done"}');
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body)).toMatchObject({ project: { id } });
        expect((await call('GET', `/projects/${id}`)).status).toBe(404);
      }
    } finally {
      keepAlive.destroy();
    }
  });

  it('refuses a request whose own body breaks its framing with a JSON 400, and applies nothing', async () => {
    const { call, base } = await serve();
    const answer = parseRaw(
      await rawExchange(
        base,
        `POST /api/v2/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\n` +
          'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      ),
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'invalid_input' });
    expect((await call('GET', '/projects')).body.projects).toEqual([]);
  });

  it('answers a request node cannot parse with a JSON 400', async () => {
    const { call, base } = await serve();
    const answer = parseRaw(await rawExchange(base, 'NOT HTTP AT ALL\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toMatchObject({
      code: 'invalid_input',
      message: expect.any(String),
    });
    expect((await call('GET', '/projects')).status).toBe(200);
  });
});

describe.each(TRANSPORTS)('rate limits per route (%s)', (transport) => {
  it('counts one route pattern together, whatever ids or extra slashes the path has', async () => {
    const { base, send } = await serveOver(transport, {
      rateLimits: { perKeyPerMinute: 1_000, perRoutePerSecond: 3 },
    });
    const get = async (path: string) =>
      (await send(`${base}${path}`, { headers: { authorization: `Bearer ${KEY}` } })).status;
    const spellings = [
      (i: number) => `/projects/p-${i}/operations/op-${i}`,
      (i: number) => `/projects/p-1//operations/op-${i}`,
      (i: number) => `//projects/p-${i}/operations/op-${i}/`,
    ];
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push(await get((spellings[i % 3] as (i: number) => string)(i)));
    expect(statuses).toEqual([404, 404, 404, 429]);
    const control = [];
    for (let i = 0; i < 4; i++) control.push(await get(`/_sim/connections/c-${i}`));
    expect(control).toEqual([404, 404, 404, 429]);
    expect(await get('/projects')).toBe(200); // another route
  });
});

describe.each(TRANSPORTS)('internal failures (%s)', (transport) => {
  const serve = (options: Parameters<typeof serveOver>[1] = {}) => serveOver(transport, options);
  it('answers 400 only to the server’s own validation errors', async () => {
    const { call } = await serve();
    const headless = await call('POST', '/_sim/reset', { jsonl: '{"type":"ClockAdvanced"}\n' });
    expect(headless.status).toBe(400);
    expect(headless.body).toMatchObject({ code: 'invalid_input' });
    expect((await call('POST', '/_sim/reset', { jsonl: '{oops' })).status).toBe(400);
  });

  it('answers 500 internal_error without a stack trace, tells the operator, keeps serving', async () => {
    const told: unknown[] = [];
    const { call, server } = await serve({ onInternalError: (error) => told.push(error) });
    for (const thrown of [
      new RangeError('Invalid array length'),
      new TypeError('x is undefined'),
    ]) {
      const spy = vi.spyOn(server.sim, 'answer').mockImplementation(() => {
        throw thrown;
      });
      const answer = await call('GET', '/projects');
      spy.mockRestore();
      expect(answer.status).toBe(500);
      expect(answer.body).toMatchObject({ code: '', message: expect.any(String) });
      expect(JSON.stringify(answer.body)).not.toMatch(/\n\s+at |Invalid array|undefined/);
    }
    expect((await call('GET', '/projects')).status).toBe(200);
    expect(told.map(String)).toEqual([
      'RangeError: Invalid array length',
      'TypeError: x is undefined',
    ]);
  });

  it('answers 500 to an exception outside the route handlers, and keeps serving', async () => {
    const told: unknown[] = [];
    const { call, server } = await serve({ onInternalError: (error) => told.push(error) });
    const spy = vi.spyOn(server.sim, 'now').mockImplementation(() => {
      throw new Error('clock broke');
    });
    const answer = await call('GET', '/projects');
    spy.mockRestore();
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ code: 'internal_error' });
    expect((await call('GET', '/projects')).status).toBe(200);
    expect(told.map(String)).toEqual(['Error: clock broke']);
  });
});

describe('shutdown', () => {
  it('closes open connections, even one mid-request, so close resolves promptly', async () => {
    const { server, base } = await serve();
    const url = new URL(base);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET /api/v2/projects HTTP/1.1\r\nHost: x\r\n`); // headers not finished
    const idle = await fetch(`${base}/projects`, { headers: { authorization: `Bearer ${KEY}` } });
    await idle.text(); // a keep-alive connection, now idle
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const ended = new Promise((resolve) => socket.once('close', resolve));
    await server.close();
    await ended;
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
