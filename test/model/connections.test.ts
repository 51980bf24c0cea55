import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../src/index.js';
import { givenProject } from '../support/given.js';

describe('connections', () => {
  it('opens at once on an active compute', () => {
    const { sim, endpointId, endpoint } = givenProject();
    const connection = sim.connect(endpointId);
    expect(connection.state).toBe('open');
    expect(endpoint().directConnections).toBe(1);
  });

  it('waits while an idle compute wakes (a few hundred ms), then opens', () => {
    const { sim, endpointId, endpoint, project } = givenProject();
    sim.runUntilIdle();
    expect(endpoint().currentState).toBe('idle');
    const connection = sim.connect(endpointId);
    expect(connection.state).toBe('connecting');
    const wake = Object.values(project().operations).at(-1)!;
    expect(wake).toMatchObject({ action: 'start_compute', status: 'running' });
    expect(wake.durationMs).toBeGreaterThanOrEqual(200);
    expect(wake.durationMs).toBeLessThanOrEqual(600);
    sim.advance(wake.durationMs);
    expect(connection.state).toBe('open');
    expect(endpoint().currentState).toBe('active');
  });

  it('waits for a suspend in progress, then wakes the compute again', () => {
    const { sim, endpointId, endpoint, project } = givenProject();
    sim.runUntil((s) => s.projects[project().id]!.endpoints[endpointId]!.pendingState === 'idle');
    const connection = sim.connect(endpointId);
    expect(connection.state).toBe('connecting');
    sim.advance('5s');
    expect(connection.state).toBe('open');
    expect(endpoint().currentState).toBe('active');
  });

  it('refuses past max_connections with 53300 (0.25 CU: 112), and counts pooled ones apart', () => {
    const { sim, endpointId } = givenProject();
    const direct = Array.from({ length: 112 }, () => sim.connect(endpointId));
    expect(direct.every((c) => c.state === 'open')).toBe(true);
    const refused = sim.connect(endpointId);
    expect(refused.state).toBe('refused');
    expect(refused.error).toEqual({
      sqlstate: '53300',
      message: 'sorry, too many clients already',
    });
    const pooled = sim.connect(endpointId, { pooled: true });
    expect(pooled.state).toBe('open');
    direct[0]!.close();
    expect(sim.connect(endpointId).state).toBe('open');
  });

  it('refuses the pooler past its limit (10,000 by default; 300 here)', () => {
    expect(DEFAULT_PROFILE.limits.pooledConnections).toBe(10_000);
    const { sim, endpointId } = givenProject({ profile: { limits: { pooledConnections: 300 } } });
    const pooled = Array.from({ length: 300 }, () => sim.connect(endpointId, { pooled: true }));
    expect(pooled.every((c) => c.state === 'open')).toBe(true);
    expect(sim.connect(endpointId, { pooled: true }).error?.sqlstate).toBe('53300');
  });

  it('refuses a disabled compute (08004) without waking it, and an unknown one (08001)', () => {
    const { sim, endpointId, endpoint, path, settle } = givenProject();
    sim.request('PATCH', path(`/endpoints/${endpointId}`), { endpoint: { disabled: true } });
    settle();
    const refused = sim.connect(endpointId);
    expect(refused.state).toBe('refused');
    expect(refused.error?.sqlstate).toBe('08004');
    expect(endpoint().currentState).toBe('idle');
    expect(Object.values(sim.state.projects[endpoint().projectId]!.pendingOperations)).toEqual([]);
    expect(sim.connect('ep-no-such-000000').error?.sqlstate).toBe('08001');
  });

  it('is dropped with 57P01 by a restart, and a new one opens after it', () => {
    const { sim, endpointId, path, settle } = givenProject();
    const connection = sim.connect(endpointId);
    sim.request('POST', path(`/endpoints/${endpointId}/restart`));
    expect(connection.state).toBe('dropped');
    expect(connection.error?.sqlstate).toBe('57P01');
    settle();
    expect(sim.connect(endpointId).state).toBe('open');
  });

  it('is dropped with 08001 when its compute is deleted', () => {
    const { sim, endpointId, path } = givenProject();
    const connection = sim.connect(endpointId);
    expect(sim.request('DELETE', path(`/endpoints/${endpointId}`)).status).toBe(200);
    expect(connection.state).toBe('dropped');
    expect(connection.error?.sqlstate).toBe('08001');
  });

  it('closing twice changes nothing', () => {
    const { sim, endpointId } = givenProject();
    const connection = sim.connect(endpointId);
    connection.close();
    const length = sim.log.length;
    connection.close();
    expect(connection.state).toBe('closed');
    expect(sim.log.length).toBe(length);
  });
});
