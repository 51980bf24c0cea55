/**
 * A simulation that keeps no log in memory (`log: 'none'`, or streamed to a file): what needs its
 * history is refused up front, with a status and a message that say what to do, and the run goes
 * on as it was.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LogFileSink,
  LogUnavailableError,
  Simulation,
  type SimulationOptions,
} from '../../src/index.js';
import { fetchHandler } from '../../src/entries/serve.js';
import { assertDeterministic } from '../../src/testing/index.js';

/** A project whose compute ran for two hours, on a simulation with the given log. */
function ranTwoHours(log: NonNullable<SimulationOptions['log']>): Simulation {
  const sim = new Simulation({ seed: 3, log });
  sim.request('POST', '/projects', { project: {} });
  sim.advance('2h');
  return sim;
}

const HISTORY =
  '/consumption_history/projects?from=2026-01-05T00:00:00Z&to=2026-01-05T02:00:00Z&granularity=hourly';

describe('a simulation that keeps no log', () => {
  it('refuses consumption history with a 409 saying how to keep the log, then answers as before', () => {
    const sim = ranTwoHours('none');
    const events = sim.log.length;
    const refused = sim.request('GET', HISTORY);
    expect(refused.status).toBe(409);
    // The API's error body, as the real service's 409s: its message says what is wrong.
    expect(refused.body).toMatchObject({
      message: expect.stringMatching(/keeps none in memory.*log: 'memory'.*metricsOf/),
    });
    expect(sim.log.length).toBe(events);
    expect(sim.request('GET', '/projects').status).toBe(200);
    // The same request on a run that keeps its log is answered.
    expect(ranTwoHours('memory').request('GET', HISTORY).status).toBe(200);
  });

  it('refuses a fork, naming fork and the way to fork a log file', () => {
    const sim = ranTwoHours('none');
    const events = sim.log.length;
    expect(() => sim.fork('2026-01-05T01:00:00Z', { profile: {} })).toThrow(LogUnavailableError);
    expect(() => sim.fork('2026-01-05T01:00:00Z', { profile: {} })).toThrow(
      /^fork: .*keeps none in memory.*Simulation\.fromLog\(LogFile\.open/,
    );
    expect(sim.log.length).toBe(events);
  });

  it('is refused by assertDeterministic, which compares logs', async () => {
    await expect(assertDeterministic(() => ranTwoHours('none'), 3)).rejects.toThrow(
      /assertDeterministic compares the two runs' event logs.*log: 'memory'/,
    );
    await expect(assertDeterministic(() => ranTwoHours('memory'), 3)).resolves.toBeUndefined();
  });

  it('answers GET /_sim/snapshot with a 409 before any line, not a 200 that breaks off', async () => {
    const handle = fetchHandler(ranTwoHours('none'));
    const answer = await handle(new Request('http://computesim.test/api/v2/_sim/snapshot'));
    expect(answer.status).toBe(409);
    expect(await answer.json()).toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/the snapshot is the event log.*keeps none in memory/),
    });
    const kept = fetchHandler(ranTwoHours('memory'));
    const snapshot = await kept(new Request('http://computesim.test/api/v2/_sim/snapshot'));
    expect(snapshot.status).toBe(200);
    expect((await snapshot.text()).split('\n')[0]).toContain('"SimulationStarted"');
  });

  it('answers a write after its log file was closed with a 503 that says so, not an opaque 500', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'csim-logless-')), 'run.csimlog');
    const sim = ranTwoHours(LogFileSink.create(path));
    const handle = fetchHandler(sim);
    sim.log.close();
    const projects = Object.keys(sim.state.projects).length;
    const answer = await handle(
      new Request('http://computesim.test/api/v2/projects', {
        method: 'POST',
        body: '{"project":{}}',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(answer.status).toBe(503);
    expect(await answer.json()).toMatchObject({
      message: expect.stringMatching(/the log was closed/),
    });
    expect(Object.keys(sim.state.projects)).toHaveLength(projects);
    // In process, the same refusal.
    const inProcess = sim.request('POST', '/projects', { project: {} });
    expect(inProcess.status).toBe(503);
    expect(inProcess.body).toMatchObject({ message: 'the log was closed: no event can follow' });
    expect(Object.keys(sim.state.projects)).toHaveLength(projects);
  });
});
