import { describe, expect, it } from 'vitest';
import { givenProject } from '../support/given.js';
import { Simulation } from '../../src/index.js';

describe('operations slow to be picked up (delayRate / delayMs)', () => {
  it('an operation that would run at once stays scheduling for the drawn delay, then runs', () => {
    const { sim, endpointId, path, settle } = givenProject({
      profile: {
        faults: {
          suspend_compute: {
            failureRate: 0,
            maxRetries: 0,
            retryDelayMs: 0,
            delayRate: 1,
            delayMs: [30_000, 30_000],
          },
        },
      },
    });
    const restarted = sim.request('POST', path(`/endpoints/${endpointId}/restart`));
    expect(restarted.status).toBe(200);
    const first = restarted.body.operations[0];
    expect(first.status).toBe('scheduling');
    const status = () => sim.request('GET', path(`/operations/${first.id}`)).body.operation.status;
    sim.advance('29s');
    expect(status()).toBe('scheduling');
    sim.advance('1s');
    expect(status()).toBe('running');
    settle();
    expect(status()).toBe('finished');
    expect(Simulation.fromJSONL(sim.toJSONL()).simulation.state).toEqual(sim.state);
  });

  it('leaves the random streams of runs without a delay as they were', () => {
    const ids = (faults: object) => {
      const { sim, path, endpointId } = givenProject({ profile: { faults } });
      return sim.request('POST', path(`/endpoints/${endpointId}/restart`)).body.operations;
    };
    const plain = { failureRate: 0, maxRetries: 0, retryDelayMs: 0 };
    expect(ids({ suspend_compute: { ...plain, delayRate: 0, delayMs: [1, 2] } })).toEqual(ids({}));
  });

  it('refuses a delayRate without delayMs, and a malformed delay range', () => {
    const spec = { failureRate: 0, maxRetries: 0, retryDelayMs: 0 };
    expect(
      () => new Simulation({ profile: { faults: { start_compute: { ...spec, delayRate: 0.5 } } } }),
    ).toThrow(/delayRate needs delayMs/);
    expect(
      () =>
        new Simulation({
          profile: { faults: { start_compute: { ...spec, delayRate: 1, delayMs: [5, 1] } } },
        }),
    ).toThrow(/profile\.faults\.start_compute\.delayMs must be/);
  });
});

describe('wake-up faults (faults.wake_compute)', () => {
  it('fail the starts that wake an idle compute, not the first start', () => {
    const { sim, endpointId, endpoint } = givenProject({
      profile: {
        faults: { wake_compute: { failureRate: 1, maxRetries: 0, retryDelayMs: 1_000 } },
      },
    });
    expect(endpoint().currentState).toBe('active');
    sim.advance('6m');
    expect(endpoint().currentState).toBe('idle');
    const conn = sim.connect(endpointId);
    sim.advance('10s');
    expect(conn.state).toBe('refused');
    expect(conn.error?.sqlstate).toBe('08006');
  });

  it('are refused under an unknown key with the list of what is known', () => {
    const spec = { failureRate: 0, maxRetries: 0, retryDelayMs: 0 };
    expect(() => new Simulation({ profile: { faults: { wake: spec } as never } })).toThrow(
      /unknown action "wake" \(an operation action or wake_compute\)/,
    );
  });
});

describe('sim.dropConnections', () => {
  it('drops the open connections of a compute with 57P01 and leaves it up', () => {
    const { sim, endpointId, endpoint } = givenProject();
    const a = sim.connect(endpointId);
    const b = sim.connect(endpointId);
    expect(sim.dropConnections(endpointId)).toBe(2);
    expect([a.state, b.state]).toEqual(['dropped', 'dropped']);
    expect(a.error?.sqlstate).toBe('57P01');
    expect(endpoint().currentState).toBe('active');
    expect(sim.dropConnections(endpointId)).toBe(0);
    expect(Simulation.fromJSONL(sim.toJSONL()).simulation.state).toEqual(sim.state);
  });

  it('throws a RangeError for an unknown compute and changes nothing', () => {
    const { sim } = givenProject();
    const length = sim.log.length;
    expect(() => sim.dropConnections('ep-nope')).toThrow(RangeError);
    expect(sim.log.length).toBe(length);
  });
});
