import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation, formatInstant, type SimState } from '../../src/index.js';

const onlyProject = (s: SimState) => Object.values(s.projects)[0];
const computeIsActive = (s: SimState) =>
  Object.values(onlyProject(s)?.endpoints ?? {})[0]?.currentState === 'active';
const timelineCreated = (s: SimState) =>
  Object.values(onlyProject(s)?.operations ?? {}).some(
    (o) => o.action === 'create_timeline' && o.status === 'finished',
  );

interface OperationJson {
  id: string;
  action: string;
  status: string;
  created_at: string;
  updated_at: string;
  total_duration_ms: number;
}
interface EndpointJson {
  id: string;
  current_state: string;
  pending_state?: string;
  last_active?: string;
}

function givenProject(options: ConstructorParameters<typeof Simulation>[0] = {}) {
  const sim = new Simulation(options);
  const created = sim.request('POST', '/projects', { project: { name: 'shop' } });
  const body = created.body as {
    project: { id: string };
    endpoints: EndpointJson[];
    operations: OperationJson[];
  };
  const projectId = body.project.id;
  const endpointId = (body.endpoints[0] as EndpointJson).id;
  const endpoint = () =>
    (
      sim.request('GET', `/projects/${projectId}/endpoints/${endpointId}`).body as {
        endpoint: EndpointJson;
      }
    ).endpoint;
  const operations = () =>
    (
      sim.request('GET', `/projects/${projectId}/operations`).body as {
        operations: OperationJson[];
      }
    ).operations;
  return { sim, created, body, projectId, endpointId, endpoint, operations };
}

/** A timestamp as response bodies write it: whole seconds, like the real service. */
const inWholeSeconds = (ms: number) => formatInstant(Math.floor(ms / 1000) * 1000);

describe('creating a project', () => {
  it('returns 201 with the primary compute in init, pending active, and create_timeline running before start_compute', () => {
    const { created, body } = givenProject();
    expect(created.status).toBe(201);
    expect(body.endpoints).toHaveLength(1);
    expect(body.endpoints[0]).toMatchObject({
      type: 'read_write',
      current_state: 'init',
      pending_state: 'active',
    });
    expect(body.endpoints[0]).not.toHaveProperty('last_active');
    expect(body.operations.map((o) => [o.action, o.status])).toEqual([
      ['create_timeline', 'running'],
      ['start_compute', 'scheduling'],
    ]);
    expect(new Set(body.operations.map((o) => o.created_at)).size).toBe(1);
  });

  it('starts start_compute when create_timeline finishes, then the compute becomes active', () => {
    const { sim, endpoint, operations } = givenProject();
    sim.runUntil(timelineCreated);
    const [startCompute, createTimeline] = operations();
    expect(createTimeline).toMatchObject({ action: 'create_timeline', status: 'finished' });
    expect(startCompute).toMatchObject({ action: 'start_compute', status: 'running' });
    expect(endpoint()).toMatchObject({ current_state: 'init', pending_state: 'active' });
    sim.runUntil(computeIsActive);
    expect(endpoint().current_state).toBe('active');
    expect(endpoint()).not.toHaveProperty('pending_state');
    expect(endpoint().last_active).toBe(inWholeSeconds(sim.now()));
    expect(operations().every((o) => o.status === 'finished')).toBe(true);
  });

  it('draws operation durations from the latency profile', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const { sim, operations } = givenProject({
          seed,
          profile: { latency: { create_timeline: [1000, 1500], start_compute: [200, 300] } },
        });
        sim.advance('10s');
        const [start, timeline] = operations() as [OperationJson, OperationJson];
        expect(timeline.total_duration_ms).toBeGreaterThanOrEqual(1000);
        expect(timeline.total_duration_ms).toBeLessThanOrEqual(1500);
        // start_compute waited for create_timeline, then ran 200-300 ms
        expect(start.total_duration_ms - timeline.total_duration_ms).toBeGreaterThanOrEqual(200);
        expect(start.total_duration_ms - timeline.total_duration_ms).toBeLessThanOrEqual(300);
      }),
      { numRuns: 30 },
    );
  });
});

describe('scale to zero', () => {
  it('suspends an unused compute after the default 5 minutes with a suspend_compute operation', () => {
    const { sim, endpoint, operations } = givenProject();
    sim.runUntil(computeIsActive);
    const activeAt = sim.now();
    sim.advanceTo(activeAt + 299_999);
    expect(endpoint().current_state).toBe('active');
    sim.advanceTo(activeAt + 300_000);
    expect(operations()[0]).toMatchObject({ action: 'suspend_compute', status: 'running' });
    expect(endpoint()).toMatchObject({ current_state: 'active', pending_state: 'idle' });
    sim.runUntilIdle();
    expect(endpoint().current_state).toBe('idle');
    expect(endpoint().last_active).toBe(inWholeSeconds(activeAt));
    expect(operations()[0]).toMatchObject({ action: 'suspend_compute', status: 'finished' });
  });

  it('follows an overridden default suspend timeout', () => {
    const { sim, endpoint } = givenProject({ profile: { defaultSuspendTimeoutSeconds: 60 } });
    sim.runUntil(computeIsActive);
    sim.advance('61s');
    expect(endpoint().current_state).toBe('idle');
  });

  it('is idle after runUntilIdle: operations settled and the compute suspended', () => {
    const { sim, endpoint, operations } = givenProject();
    sim.runUntilIdle();
    expect(endpoint().current_state).toBe('idle');
    expect(operations().map((o) => o.status)).toEqual(['finished', 'finished', 'finished']);
    expect(sim.pending.foreground).toBe(0);
  });
});

describe('profile overrides', () => {
  it.each([
    [{ nope: 1 }, /unknown setting "nope"/],
    [{ latency: { warp: [1, 2] } }, /unknown kind "warp"/],
    [{ latency: { apply_config: [5, 1] } }, /apply_config must be \[minMs, maxMs\]/],
    [{ defaultSuspendTimeoutSeconds: 5 }, /60\.\.604800/],
    [{ regionId: 'Mars Base' }, /regionId/],
  ])('rejects %j with a message naming the setting', (profile, message) => {
    expect(() => new Simulation({ profile: profile as never })).toThrow(message);
  });
});
