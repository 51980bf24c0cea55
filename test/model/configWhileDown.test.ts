import { describe, expect, it } from 'vitest';
import { checkLog, noConnectionOnIdleCompute } from '../../src/testing/index.js';
import { givenProject } from '../support/given.js';

describe('a setting changed while the compute is down', () => {
  it('does not knock down a compute a client woke before the change started', () => {
    const slowConfig = { failureRate: 0, maxRetries: 0, retryDelayMs: 0, delayRate: 1 };
    const { sim, endpointId, endpoint, path } = givenProject({
      profile: { faults: { apply_config: { ...slowConfig, delayMs: [60_000, 60_000] } } },
    });
    sim.runUntilIdle();
    expect(endpoint().currentState).toBe('idle');
    const patched = sim.request('PATCH', path(`/endpoints/${endpointId}`), {
      endpoint: { suspend_timeout_seconds: 600 },
    });
    expect(patched.status).toBe(200);
    const client = sim.connect(endpointId);
    sim.advance('30s');
    expect(client.state).toBe('open');
    sim.advance('2m');
    expect(checkLog(sim.log, [noConnectionOnIdleCompute()])).toBeUndefined();
  });
});
