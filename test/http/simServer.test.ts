/**
 * The HTTP facade, one suite run against the HTTP core's `fetch` in process and over a socket on an
 * ephemeral loopback port: the same API as `sim.request`, JSON errors for everything a client can
 * get wrong, keys, control routes, paced clocks and the state file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { parseClockMode, type ClockMode } from '../../src/service/clockMode.js';
import { KEY, serveOver, TRANSPORTS, type Transport } from '../support/transports.js';
import { StateFile } from '../../src/http/stateFile.js';
import { replayLogFile } from '../../src/logfiles/replayLogFile.js';

const MANUAL = parseClockMode('manual');

function serve(
  transport: Transport,
  options: {
    sim?: Simulation;
    clock?: ClockMode;
    stateFile?: StateFile;
    wallNow?: () => number;
  } = {},
) {
  return serveOver(
    transport,
    {
      clock: options.clock ?? (MANUAL.ok ? MANUAL.value : { name: 'manual', rate: 0 }),
      ...(options.stateFile === undefined ? {} : { stateFile: options.stateFile }),
      ...(options.wallNow === undefined ? {} : { wallNow: options.wallNow }),
    },
    options.sim,
  );
}

describe.each(TRANSPORTS)('the HTTP facade over %s', (transport) => {
  it('answers exactly what sim.request answers, with Date in virtual time', async () => {
    const { call, server } = await serve(transport);
    const created = await call(
      'POST',
      '/projects',
      { project: { name: 'web' } },
      { 'x-request-id': 'r-1' },
    );
    expect(created.status).toBe(201);
    expect(created.body.project.name).toBe('web');
    expect(created.headers.get('date')).toBe(new Date(server.sim.now()).toUTCString());
    const direct = server.sim.request('GET', `/projects/${created.body.project.id}`, undefined, {
      apiKey: KEY,
    });
    const overHttp = await call('GET', `/projects/${created.body.project.id}`);
    expect(overHttp.body).toEqual(direct.body);
  });

  it('refuses what a client can get wrong with a JSON error and no stack trace', async () => {
    const { call, base, send } = await serve(transport);
    // Error bodies as the real service writes them: an empty code, a message, a request id.
    const cases = [
      [await call('GET', '/projects', undefined, { authorization: '' }), 401],
      [await call('GET', '/nowhere'), 404],
      [await call('PUT', '/projects'), 405],
      [await call('POST', '/projects', '{"project":'), 400],
      [await call('POST', '/projects', 'x'.repeat(1024 * 1024 + 1)), 413],
      [await call('POST', '/projects', { project: { name: 7 } }), 400],
    ] as const;
    for (const [response, status] of cases) {
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({
        code: '',
        message: expect.any(String),
        request_id: expect.any(String),
      });
      expect(JSON.stringify(response.body)).not.toMatch(/\n\s+at /);
    }
    const outside = await send(base.replace('/api/v2', '/other'));
    expect(outside.status).toBe(404);
    expect(await outside.json()).toMatchObject({ code: '', message: expect.any(String) });
  });

  it('moves the clock only through control routes in manual mode', async () => {
    const { call } = await serve(transport);
    const before = (await call('GET', '/_sim/clock')).body;
    const { operations } = (await call('POST', '/projects', { project: {} })).body;
    expect((await call('GET', '/_sim/clock')).body.now_ms).toBe(before.now_ms);
    const advanced = await call('POST', '/_sim/advance', { by: '30s' });
    expect(advanced.body.now_ms).toBe(before.now_ms + 30_000);
    const op = await call(
      'GET',
      `/projects/${operations[1].project_id}/operations/${operations[1].id}`,
    );
    expect(op.body.operation.status).toBe('finished');
    expect((await call('POST', '/_sim/advance', { by: 'soon' })).status).toBe(400);
    expect((await call('POST', '/_sim/run_until_idle')).status).toBe(200);
  });

  it('follows the wall clock N times faster in paced mode', async () => {
    let wall = 1_000;
    const mode = parseClockMode('60x');
    if (!mode.ok) throw new Error(mode.error);
    const { call } = await serve(transport, { clock: mode.value, wallNow: () => wall });
    const start = (await call('GET', '/_sim/clock')).body.now_ms;
    wall += 2_000;
    expect((await call('GET', '/_sim/clock')).body.now_ms).toBe(start + 120_000);
    const project = (await call('POST', '/projects', { project: {} })).body.project.id;
    const jumped = (await call('POST', '/_sim/run_until_idle')).body.now_ms;
    expect(jumped).toBeGreaterThan(start + 120_000 + 60_000);
    wall += 1_000;
    await call('GET', `/projects/${project}`);
    expect((await call('GET', '/_sim/clock')).body.now_ms).toBe(jumped + 60_000);
    expect(parseClockMode('fast').ok).toBe(false);
    expect(parseClockMode('0x').ok).toBe(false);
  });

  it('opens and closes simulated connections, snapshots and resets', async () => {
    const { call, server } = await serve(transport);
    const { endpoints } = (await call('POST', '/projects', { project: {} })).body;
    await call('POST', '/_sim/advance', { by: '30s' });
    const opened = await call('POST', '/_sim/connections', { endpoint_id: endpoints[0].id });
    expect(opened.status).toBe(201);
    expect(opened.body.connection).toMatchObject({ endpoint_id: endpoints[0].id, state: 'open' });
    const closed = await call('DELETE', `/_sim/connections/${opened.body.connection.id}`);
    expect(closed.body.connection.state).toBe('closed');
    expect((await call('GET', '/_sim/connections/c-999')).status).toBe(404);
    expect((await call('POST', '/_sim/connections', {})).status).toBe(400);
    const snapshot = await call('GET', '/_sim/snapshot');
    expect(snapshot.headers.get('content-type')).toBe('application/x-ndjson');
    expect(Simulation.fromJSONL(snapshot.body).simulation.state).toEqual(server.sim.state);
    await call('POST', '/_sim/reset', { seed: 9 });
    expect((await call('GET', '/projects')).body.projects).toEqual([]);
    await call('POST', '/_sim/reset', { jsonl: snapshot.body });
    expect((await call('GET', '/projects')).body.projects).toHaveLength(1);
    expect((await call('POST', '/_sim/reset', { jsonl: '{oops' })).status).toBe(400);
    expect((await call('POST', '/_sim/reset', null)).status).toBe(400);
    expect((await call('GET', '/projects')).body.projects).toHaveLength(1);
    const defaults = await call('POST', '/_sim/reset'); // no body: a reset to defaults
    expect(defaults.status).toBe(200);
    expect((await call('GET', '/projects')).body.projects).toEqual([]);
  });

  it('keeps project-scoped keys to their project and away from the controls', async () => {
    const sim = new Simulation({ seed: 3 });
    const mine = sim.request('POST', '/projects', { project: {} }).body.project.id;
    const theirs = sim.request('POST', '/projects', { project: {} }).body.project.id;
    const { base, send } = await serveOver(
      transport,
      {
        keys: [
          { key: KEY, kind: 'personal' },
          { key: 'scoped', kind: 'project', projectId: mine },
        ],
      },
      sim,
    );
    const get = (path: string) =>
      send(`${base}${path}`, { headers: { authorization: 'Bearer scoped' } }).then((r) => r.status);
    expect(await get(`/projects/${mine}`)).toBe(200);
    expect(await get(`/projects/${theirs}`)).toBe(404);
    expect(await get('/_sim/clock')).toBe(403);
  });

  it('rate-limits per route and per key when asked, with Retry-After', async () => {
    let wall = 0;
    const { base, send } = await serveOver(transport, {
      rateLimits: { perKeyPerMinute: 5, perRoutePerSecond: 3 },
      wallNow: () => wall,
    });
    const get = (path: string) =>
      send(`${base}${path}`, { headers: { authorization: `Bearer ${KEY}` } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get('/projects')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await get('/projects');
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toMatchObject({
      code: '',
      message: expect.stringMatching(/too many requests/),
    });
    expect((await get('/projects/p-1/branches')).status).toBe(404); // another route: allowed
    wall += 1_001;
    expect((await get('/projects')).status).toBe(200);
    const perKey = await get('/projects');
    expect(perKey.status).toBe(429); // 5 a minute for the key
    expect(Number(perKey.headers.get('retry-after'))).toBe(59);
  });

  it('appends every event to the state file before answering, and replays it', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'computesim-state-')), 'events.jsonl');
    const { call, server } = await serve(transport, { stateFile: StateFile.open(path) });
    const created = await call('POST', '/projects', { project: { name: 'kept' } });
    const onDisk = readFileSync(path, 'utf8').trim().split('\n');
    const commits = onDisk.filter((line) => line.startsWith('{"commit":'));
    // the format line, every event, and a commit line after each request's events
    expect(commits).toHaveLength(2);
    expect(onDisk).toHaveLength(1 + server.sim.log.length + commits.length);
    await call('POST', '/_sim/advance', { by: '1m' });
    expect(replayLogFile(path).simulation?.state).toEqual(server.sim.state);
    const state = server.sim.state;
    await server.close();
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"type":"Proj`);
    const torn = StateFile.open(path);
    torn.close();
    expect(torn.recovery.dropped).toMatchObject({ events: 1 });
    expect(torn.simulation?.state).toEqual(state);
    expect(torn.simulation?.state.projects[created.body.project.id]?.name).toBe('kept');
    expect(readFileSync(path, 'utf8').endsWith('}\n')).toBe(true);
  });
});
