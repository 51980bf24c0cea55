import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { givenProject } from '../support/given.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const actions = (ops: readonly { action: string }[]) => ops.map((o) => o.action);

describe('availability checks', () => {
  it('checks a branch with a compute after 6 h, starting its idle compute, which then scales to zero again', () => {
    const { sim, project, endpoint, projectId } = givenProject();
    sim.runUntilIdle();
    const createdAt = project().createdAt;
    sim.advanceTo(createdAt + 6 * HOUR + 1);
    const ops = Object.values(project().operations).slice(-2);
    expect(actions(ops)).toEqual(['check_availability', 'start_compute']);
    sim.runUntil((s) => Object.keys(s.projects[projectId]!.pendingOperations).length === 0);
    expect(endpoint().currentState).toBe('active');
    sim.runUntilIdle();
    expect(endpoint().currentState).toBe('idle');
  });

  it('doubles the interval while the branch gets no connections, and goes back to 6 h after one', () => {
    const { sim, project, branchId, endpointId } = givenProject();
    const checks = () =>
      Object.values(project().operations)
        .filter((o) => o.action === 'check_availability')
        .map((o) => o.createdAt);
    sim.advance('4d');
    const times = checks();
    const gaps = times.slice(1).map((t, i) => (t - times[i]!) / HOUR);
    expect(gaps.slice(0, 3)).toEqual([12, 24, 48]);
    const connection = sim.connect(endpointId);
    sim.advance('1s'); // the idle compute wakes; the connection opens
    expect(connection.state).toBe('open');
    connection.close();
    const last = project().branches[branchId]!.nextCheckAt!;
    sim.advanceTo(last + 1);
    expect(project().branches[branchId]!.checkIntervalMs).toBe(6 * HOUR);
  });

  it('does not check a branch without a compute', () => {
    const { sim, path, project, settle } = givenProject();
    const branch = sim.request('POST', path('/branches'), { branch: { name: 'data-only' } }).body
      .branch.id;
    settle();
    sim.advance('3d');
    expect(
      Object.values(project().operations).some(
        (o) => o.branchId === branch && o.action === 'check_availability',
      ),
    ).toBe(false);
    expect(project().branches[branch]!.nextCheckAt).toBeUndefined();
  });

  it('starts a disabled compute for the check and suspends it again; connections stay refused', () => {
    const { sim, path, endpointId, project, endpoint } = givenProject();
    sim.request('PATCH', path(`/endpoints/${endpointId}`), { endpoint: { disabled: true } });
    sim.advance('6h1s');
    expect(actions(Object.values(project().operations).slice(-3))).toEqual([
      'check_availability',
      'start_compute',
      'suspend_compute',
    ]);
    sim.advance('1m');
    expect(endpoint().currentState).toBe('idle');
    expect(sim.connect(endpointId).error?.sqlstate).toBe('08004');
  });

  it('is background work: runUntilIdle does not wait for it', () => {
    const { sim } = givenProject();
    const before = sim.now();
    sim.runUntilIdle();
    expect(sim.now() - before).toBeLessThan(6 * HOUR);
    expect(sim.pending.timers).toBeGreaterThan(0);
    expect(sim.pending.foreground).toBe(0);
  });

  it('can be turned off in the profile', () => {
    const { sim, project } = givenProject({
      profile: { availabilityChecks: { intervalMs: 0, backoff: 2, maxIntervalMs: 0 } },
    });
    sim.advance('3d');
    expect(Object.values(project().operations).some((o) => o.action === 'check_availability')).toBe(
      false,
    );
  });
});

describe('compute releases', () => {
  it('picks up the release current at each start; an always-on compute keeps its old one until restarted', () => {
    const { sim, path, endpointId, endpoint, settle } = givenProject();
    const first = endpoint().computeReleaseVersion;
    expect(first).toMatch(/^\d+$/);
    sim.request('PATCH', path(`/endpoints/${endpointId}`), {
      endpoint: { suspend_timeout_seconds: -1 },
    });
    settle();
    sim.advance('15d');
    expect(endpoint().computeReleaseVersion).toBe(first);
    sim.request('POST', path(`/endpoints/${endpointId}/restart`));
    settle();
    expect(Number(endpoint().computeReleaseVersion)).toBe(Number(first) + 2);
    expect(
      sim.request('GET', path(`/endpoints/${endpointId}`)).body.endpoint.compute_release_version,
    ).toBe(endpoint().computeReleaseVersion);
  });
});

describe('tenant detach and reattach', () => {
  /** Still attached a millisecond before 7 days after the project's last use, detaching at it. */
  function expectDetachedAWeekAfterLastUse(
    sim: Simulation,
    project: () => { lastUsedAt: number; detached: boolean; operations: object },
  ): void {
    sim.advanceTo(project().lastUsedAt + 7 * DAY - 1);
    expect(project().detached).toBe(false);
    sim.advance('1ms');
    const operations = Object.values(project().operations) as { action: string }[];
    expect(actions(operations.slice(-1))).toEqual(['tenant_detach']);
  }

  it('detaches a project 7 days after a connection it had to refuse (its compute failed to wake)', () => {
    const { sim, project, endpointId } = givenProject({
      profile: {
        availabilityChecks: { intervalMs: 0, backoff: 1, maxIntervalMs: 0 },
        faults: { wake_compute: { failureRate: 1, maxRetries: 0, retryDelayMs: 0 } },
      },
    });
    sim.runUntilIdle();
    sim.advance('1d');
    const connection = sim.connect(endpointId);
    sim.runUntilIdle();
    expect(connection.state).toBe('refused');
    expectDetachedAWeekAfterLastUse(sim, project);
  });

  it('holds one detach check per project however often its compute settles idle, and detaches 7 days after the last use', () => {
    const { sim, project, endpointId } = givenProject({
      profile: { availabilityChecks: { intervalMs: 0, backoff: 1, maxIntervalMs: 0 } },
    });
    sim.runUntilIdle();
    const waiting = sim.pending.timers;
    // Forty uses in a day, each followed by a suspend: forty checks armed a week ahead.
    for (let use = 0; use < 40; use++) {
      sim.connect(endpointId).close();
      sim.runUntilIdle();
      sim.advance('30m');
    }
    expect(sim.pending.timers).toBe(waiting);
    expectDetachedAWeekAfterLastUse(sim, project);
  });

  it('detaches a project unused for 7 days, and reattaches it before the compute wakes for a connection', () => {
    const { sim, project, endpointId, projectId } = givenProject({
      profile: { availabilityChecks: { intervalMs: 0, backoff: 1, maxIntervalMs: 0 } },
    });
    sim.runUntilIdle();
    const lastUsed = project().lastUsedAt;
    sim.advanceTo(lastUsed + 7 * DAY - 1);
    expect(project().detached).toBe(false);
    sim.advance('1m');
    expect(actions(Object.values(project().operations).slice(-1))).toEqual(['tenant_detach']);
    expect(project().detached).toBe(true);
    const connection = sim.connect(endpointId);
    expect(connection.state).toBe('connecting');
    const [reattach, start] = Object.values(project().operations).slice(-2);
    expect([reattach!.action, reattach!.status, start!.action, start!.status]).toEqual([
      'tenant_reattach',
      'running',
      'start_compute',
      'scheduling',
    ]);
    sim.runUntil((s) => Object.keys(s.projects[projectId]!.pendingOperations).length === 0);
    expect(project().detached).toBe(false);
    expect(connection.state).toBe('open');
  });

  it('detaches a project whose only activity is availability checks (checks are not use)', () => {
    const { sim, project } = givenProject();
    sim.advance('10d');
    expect(project().detached).toBe(true);
  });
});

describe('operation retention', () => {
  it('drops ended operations older than the retention from state, daily, while the log keeps them', () => {
    const { sim, project, path, endpointId } = givenProject({
      profile: { operationRetentionMs: 86_400_000 },
    });
    const firstDay = Object.keys(project().operations);
    sim.advance('12h');
    sim.request('POST', path(`/endpoints/${endpointId}/restart`));
    sim.advance('2d');
    const kept = Object.values(project().operations);
    expect(kept.filter((o) => firstDay.includes(o.id))).toEqual([]);
    expect(kept.every((o) => o.updatedAt >= sim.now() - 2 * 86_400_000)).toBe(true);
    const logged = [...sim.log].filter((e) => e.type === 'OperationCreated').length;
    expect(logged).toBeGreaterThan(kept.length);
    const listed = sim.request('GET', path('/operations?limit=1000')).body.operations;
    expect(listed).toHaveLength(kept.length);
    expect(Simulation.replay(sim.log).state).toEqual(sim.state);
  });

  it('keeps ended operations 6 months by default, as the real service does', () => {
    // given a project with the default retention, whose first operations have ended
    const sim = new Simulation({ seed: 4 });
    const created = sim.request('POST', '/projects', { project: {} }).body;
    const first = created.operations[0].id as string;
    const listed = () =>
      sim
        .request('GET', `/projects/${created.project.id}/operations?limit=1000`)
        .body.operations.map((o: { id: string }) => o.id);
    // when a month passes, then they are still listed
    sim.advance('30d');
    expect(listed()).toContain(first);
    // and once more than 6 months have passed, they are pruned
    sim.advance('154d');
    expect(listed()).not.toContain(first);
  });

  it('keeps everything with operationRetentionMs: 0', () => {
    const { sim, project } = givenProject();
    const before = Object.keys(project().operations);
    sim.advance('3d');
    expect(Object.keys(project().operations)).toEqual(expect.arrayContaining(before));
  });
});
