/**
 * Scale to zero with connections (fidelity.md, audit 2026-11-23): a compute suspends after its
 * timeout with no active queries; an idle connection does not keep it up and is closed at the
 * suspend (57P01); a running query, an open transaction and a workload session keep it awake.
 */
import { describe, expect, it } from 'vitest';
import { type Simulation } from '../../src/index.js';
import { fetchHandler } from '../../src/entries/serve.js';
import { givenProject } from '../support/given.js';

describe('idle connections and scale to zero', () => {
  it('given an idle open connection, when the timeout passes, then the compute suspends and the connection is closed with 57P01', () => {
    const { sim, endpointId, endpoint } = givenProject();
    const client = sim.connect(endpointId);
    expect(client.state).toBe('open');
    expect(client.activity).toBe('idle');
    sim.advance('5m').advance('5s');
    expect(endpoint().currentState).toBe('idle');
    expect(client.state).toBe('dropped');
    expect(client.error?.sqlstate).toBe('57P01');
    const again = sim.connect(endpointId);
    expect(again.state).toBe('connecting');
    sim.advance('2s');
    expect(again.state).toBe('open');
  });

  it('given a connection running a 10-minute query, when 6 minutes pass, then the compute stays active; 5 minutes after the query ends it suspends', () => {
    const { sim, endpointId, endpoint } = givenProject();
    const client = sim.connect(endpointId);
    expect(client.query('10m')).toEqual({ ok: true });
    expect(client.activity).toBe('active');
    sim.advance('6m');
    expect(endpoint().currentState).toBe('active');
    expect(client.state).toBe('open');
    sim.advance('4m');
    expect(client.activity).toBe('idle');
    sim.advance('4m50s');
    expect(endpoint().currentState).toBe('active');
    sim.advance('15s');
    expect(endpoint().currentState).toBe('idle');
    expect(client.error?.sqlstate).toBe('57P01');
  });

  it('given an open transaction with no query (idle in transaction), when an hour passes, then the compute stays up until the commit', () => {
    const { sim, endpointId, endpoint } = givenProject();
    const client = sim.connect(endpointId);
    client.begin();
    expect(client.activity).toBe('idle in transaction');
    sim.advance('1h');
    expect(endpoint().currentState).toBe('active');
    client.commit();
    expect(client.activity).toBe('idle');
    sim.advance('5m').advance('5s');
    expect(endpoint().currentState).toBe('idle');
    expect(client.state).toBe('dropped');
  });

  it('given a connection that is not open, when it runs a query, then it gets an error and nothing changes', () => {
    const { sim, endpointId } = givenProject();
    const client = sim.connect(endpointId);
    client.close();
    const events = sim.log.length;
    const result = client.query('1s');
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.error.sqlstate).toBe('08003');
    expect(sim.log.length).toBe(events);
  });

  it('given a busy connection, when a second query starts on it, then it is refused', () => {
    const { sim, endpointId } = givenProject();
    const client = sim.connect(endpointId);
    expect(client.query('1m').ok).toBe(true);
    const second = client.query('1s');
    expect(second.ok).toBe(false);
  });

  it('given a worker workload (long sessions), when an hour passes, then the compute stays active', () => {
    const { sim, endpointId, endpoint } = givenProject();
    sim.addWorkload({ kind: 'worker', endpointId, connections: 1 });
    sim.advance('1h');
    expect(endpoint().currentState).toBe('active');
  });
});

describe('idle connections over the control routes (as serve answers them)', () => {
  const call = async (sim: Simulation, method: string, path: string, body?: unknown) => {
    const response = await fetchHandler(sim)(
      new Request(`http://sim.local/api/v2${path}`, {
        method,
        ...(body === undefined
          ? {}
          : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      }),
    );
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: response.status, body: (await response.json()) as any };
  };

  it('given a connection in a transaction over /_sim, when 10 minutes pass, then it stays open; after commit and the timeout it is dropped', async () => {
    const { sim, endpointId } = givenProject();
    const opened = await call(sim, 'POST', '/_sim/connections', { endpoint_id: endpointId });
    const id: string = opened.body.connection.id;
    expect(opened.body.connection.activity).toBe('idle');
    const begun = await call(sim, 'POST', `/_sim/connections/${id}/begin`);
    expect(begun.body.connection.activity).toBe('idle in transaction');
    await call(sim, 'POST', '/_sim/advance', { by: '10m' });
    expect((await call(sim, 'GET', `/_sim/connections/${id}`)).body.connection.state).toBe('open');
    const query = await call(sim, 'POST', `/_sim/connections/${id}/query`, { duration: '1m' });
    expect(query.body.connection.activity).toBe('active');
    expect(
      (await call(sim, 'POST', `/_sim/connections/${id}/query`, { duration: '1s' })).status,
    ).toBe(409);
    await call(sim, 'POST', `/_sim/connections/${id}/commit`);
    await call(sim, 'POST', '/_sim/advance', { by: '7m' });
    const after = await call(sim, 'GET', `/_sim/connections/${id}`);
    expect(after.body.connection).toMatchObject({ state: 'dropped', error: { sqlstate: '57P01' } });
    expect((await call(sim, 'POST', `/_sim/connections/${id}/begin`)).status).toBe(409);
    expect(
      (await call(sim, 'POST', `/_sim/connections/${id}/query`, { duration: 'soon' })).status,
    ).toBe(400);
  });
});
