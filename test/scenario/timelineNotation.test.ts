/**
 * The timeline notation: connection patterns in, lifecycles out, checked against timelines worked
 * by hand.
 */
import { describe, expect, it } from 'vitest';
import { Simulation, defineScenario, runScenario, type SimEvent } from '../../src/index.js';
import { lifecycleOf, matchesLifecycle } from '../../src/projection/lifecycle.js';
import { parseConnectionPattern } from '../../src/scenario/connectionPattern.js';

describe('connection patterns', () => {
  it('reads one slot per character, counts digits, skips separators', () => {
    expect(parseConnectionPattern('c-3 | -c')).toEqual({
      ok: true,
      value: [
        { slot: 0, connections: 1 },
        { slot: 2, connections: 3 },
        { slot: 4, connections: 1 },
      ],
    });
  });

  it('names the column of a character it does not know', () => {
    expect(parseConnectionPattern('c--C')).toEqual({
      ok: false,
      error: 'connection pattern "c--C": "C" at column 4 is not one of - c 1-9 | (space)',
    });
  });
});

describe('lifecycles', () => {
  it('marks starts, suspends, connections and active time, one slot per minute', () => {
    // Start at +6.6 s; a client at +2m (30 s); suspend 5 min after it leaves (+7m30s); the log
    // ends at +12m30s, so 13 slots.
    const sim = new Simulation({ seed: 42, start: '2026-01-05T09:00:00Z' });
    const { endpoints } = sim.request('POST', '/projects', { project: {} }).body;
    const endpointId: string = endpoints[0].id;
    sim.advance('2m');
    const client = sim.connect(endpointId);
    sim.advance('30s');
    client.close();
    sim.advance('10m');
    expect(lifecycleOf(sim.log, endpointId)).toBe('S=c====z-----');
    expect(lifecycleOf(sim.log, endpointId, { unit: '5m' })).toBe('Sz-');
    // Up and down within one ten-minute slot is "briefly up", not a restart.
    expect(lifecycleOf(sim.log, endpointId, { unit: '10m' })).toBe('b-');
    expect(lifecycleOf(sim.log, endpointId, { unit: '1h' })).toBe('b');
  });

  it('shows a restart within one slot as R, a suspend over the drop it causes, and a refusal as x', () => {
    const run = runScenario(
      defineScenario({
        name: 'restart',
        start: '2026-01-05T09:00:00Z',
        script(s) {
          const { project, endpoints } = s.request('POST', '/projects', { project: {} }).body;
          const id: string = endpoints[0].id;
          s.at('+1m', () => {
            s.connect(id);
            s.request('POST', `/projects/${project.id}/endpoints/${id}/restart`);
          });
          s.at('+3m', () => s.expect('lifecycle', s.lifecycle(id), 'SR='));
        },
      }),
    );
    expect(run.failure?.message).toBeUndefined();
    const dropped = runScenario(
      defineScenario({
        name: 'drop',
        start: '2026-01-05T09:00:00Z',
        script(s) {
          const { project, endpoints } = s.request('POST', '/projects', { project: {} }).body;
          const id: string = endpoints[0].id;
          s.at('+1m', () => s.connect(id));
          s.at('+2m', () => s.request('POST', `/projects/${project.id}/endpoints/${id}/suspend`));
          s.at('+4m', () => s.expect('lifecycle', s.lifecycle(id), 'Scz-'));
        },
      }),
    );
    expect(dropped.failure?.message).toBeUndefined();
    const refused = [
      { type: 'SimulationStarted', at: 0 },
      { type: 'ConnectionRefused', at: 90_000, endpointId: 'ep-1', connectionId: 'c-1' },
      { type: 'ConnectionRefused', at: 90_000, endpointId: 'ep-2', connectionId: 'c-2' },
    ] as unknown as SimEvent[];
    expect(lifecycleOf(refused, 'ep-1')).toBe('-x');
  });

  it('marks a deleted compute with d, and nothing after it', () => {
    const sim = new Simulation({ seed: 42, start: '2026-01-05T09:00:00Z' });
    const { project, endpoints } = sim.request('POST', '/projects', { project: {} }).body;
    const other = sim.request('POST', '/projects', { project: {} }).body;
    sim.advance('2m');
    sim.request('DELETE', `/projects/${project.id}/endpoints/${endpoints[0].id}`);
    sim.request('DELETE', `/projects/${other.project.id}`);
    sim.advance('3m');
    expect(lifecycleOf(sim.log, endpoints[0].id)).toBe('S=d...');
    expect(lifecycleOf(sim.log, other.endpoints[0].id)).toBe('S=d...');
  });

  it('matches expected lifecycles with ? as any character', () => {
    expect(matchesLifecycle('S==c=z', 'S==?=z')).toBe(true);
    expect(matchesLifecycle('S==c=z', 'S=====')).toBe(false);
    expect(matchesLifecycle('S==', 'S==-')).toBe(false);
  });

  it('drives connections from a pattern in a scenario', () => {
    const run = runScenario(
      defineScenario({
        name: 'pattern',
        start: '2026-01-05T09:00:00Z',
        script(s) {
          const { endpoints } = s.request('POST', '/projects', { project: {} }).body;
          const id: string = endpoints[0].id;
          s.at('+1m', () => s.connections(id, '2-c', { hold: '10s' }));
          s.at('+5m', () => {
            const opened = Object.values(s.state.connections).filter(
              (c) => c.openedAt !== undefined,
            );
            s.expect('clients that connected', opened.length, 3);
            s.expect('lifecycle', s.lifecycle(id), 'Sc=c=');
          });
        },
      }),
    );
    expect(run.failure?.message).toBeUndefined();
  });
});
