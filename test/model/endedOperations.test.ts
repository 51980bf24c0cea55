import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation, type OperationState } from '../../src/index.js';
import { ENDED_EFFECTS, EndedOperations } from '../../src/model/endedOperations.js';

const uuid = fc.uuid().map((id) => id.toLowerCase());
const operationId = fc.oneof(uuid, fc.string({ minLength: 1, maxLength: 12 }));

/** An ended operation record, its optional fields present or not, in varying key orders. */
const endedOperation = fc
  .record(
    {
      id: operationId,
      projectId: fc.constantFrom('p-1', 'p-2'),
      branchId: fc.constantFrom('br-a', 'br-b'),
      endpointId: fc.constantFrom('ep-a', 'ep-b'),
      action: fc.constantFrom('start_compute', 'suspend_compute', 'create_branch'),
      status: fc.constantFrom('finished', 'error', 'cancelled'),
      failuresCount: fc.nat(5),
      createdAt: fc.integer({ min: 0, max: 2 ** 42 }),
      durationMs: fc.nat(10_000),
      latency: fc.constantFrom('wake_compute', 'suspend_compute'),
      startedAt: fc.integer({ min: 0, max: 2 ** 42 }),
      totalDurationMs: fc.nat(100_000),
      nextIds: fc.array(uuid, { minLength: 1, maxLength: 2 }).map(Object.freeze),
      error: fc.string(),
      effects: fc.constant(ENDED_EFFECTS),
    },
    { requiredKeys: ['id', 'projectId', 'branchId', 'action', 'status', 'createdAt', 'effects'] },
  )
  .chain((fields) =>
    fc
      .shuffledSubarray(Object.keys(fields), { minLength: Object.keys(fields).length })
      .map((order) => {
        const record: Record<string, unknown> = {};
        for (const key of order) record[key] = (fields as Record<string, unknown>)[key];
        record['updatedAt'] = fields.createdAt + (fields.totalDurationMs ?? 0);
        record['sortKey'] = fields.createdAt * 1000;
        return Object.freeze(record) as unknown as OperationState;
      }),
  );

/** Distinct ids: the archive, like the state, holds one operation per id. */
const endedOperations = fc.uniqueArray(endedOperation, { selector: (o) => o.id, maxLength: 40 });

describe('the archive of ended operations', () => {
  it('gives back each record as it was: the same fields, values and key order', () => {
    fc.assert(
      fc.property(endedOperations, (operations) => {
        const archive = new EndedOperations();
        for (const operation of operations) archive.add(operation);
        for (const operation of operations) {
          const found = archive.find(operation.projectId, operation.id);
          expect(JSON.stringify(found)).toBe(JSON.stringify(operation));
          expect(Object.isFrozen(found)).toBe(true);
        }
      }),
    );
  });

  it('finds an operation only in its own project, and not once pruned or forgotten', () => {
    fc.assert(
      fc.property(endedOperations, fc.integer({ min: 0, max: 2 ** 42 }), (operations, before) => {
        const archive = new EndedOperations();
        const inEndOrder = [...operations].sort((a, b) => a.updatedAt - b.updatedAt);
        for (const operation of inEndOrder) archive.add(operation);
        archive.prune('p-1', before);
        archive.forget('p-2');
        for (const operation of operations) {
          const other = operation.projectId === 'p-1' ? 'p-2' : 'p-1';
          expect(archive.find(other, operation.id)).toBeUndefined();
          const kept = operation.projectId === 'p-1' && operation.updatedAt >= before;
          expect(archive.find(operation.projectId, operation.id) !== undefined).toBe(kept);
        }
      }),
    );
  });

  it('does not find the operation archived last once its project is pruned past it or forgotten', () => {
    fc.assert(
      fc.property(endedOperation, (operation) => {
        const pruned = new EndedOperations();
        pruned.add(operation);
        expect(pruned.find(operation.projectId, operation.id)).toBe(operation);
        pruned.prune(operation.projectId, operation.updatedAt + 1);
        expect(pruned.find(operation.projectId, operation.id)).toBeUndefined();
        const forgotten = new EndedOperations();
        forgotten.add(operation);
        forgotten.forget(operation.projectId);
        expect(forgotten.find(operation.projectId, operation.id)).toBeUndefined();
      }),
    );
  });

  it('pages a project by sort key as a sorted listing would', () => {
    fc.assert(
      fc.property(
        endedOperations,
        fc.integer({ min: 0, max: 2 ** 52 }),
        fc.integer({ min: 1, max: 10 }),
        (operations, before, limit) => {
          const archive = new EndedOperations();
          for (const operation of operations) archive.add(operation);
          const window = archive.window('p-1');
          const page = window === undefined ? [] : archive.newestBefore(window, before, limit);
          const expected = operations
            .filter((o) => o.projectId === 'p-1' && o.sortKey < before)
            .sort((a, b) => b.sortKey - a.sortKey)
            .slice(0, limit);
          expect(page.map((o) => o.sortKey)).toEqual(expected.map((o) => o.sortKey));
        },
      ),
    );
  });
});

describe('compaction of the archive', () => {
  /** Operation `i` of project `p-<i % 3>`, ended at `i` ms. */
  const ended = (i: number): OperationState =>
    Object.freeze({
      id: `${i.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`,
      projectId: `p-${i % 3}`,
      branchId: 'br-a',
      action: 'start_compute',
      status: 'finished',
      failuresCount: 0,
      createdAt: i,
      updatedAt: i,
      sortKey: i * 1000,
      effects: ENDED_EFFECTS,
    }) as unknown as OperationState;

  it('frees pruned rows once most are gone, and changes nothing anyone can see', () => {
    const archive = new EndedOperations();
    const count = 30_000;
    for (let i = 0; i < count; i++) archive.add(ended(i));
    const before = archive.window('p-1');
    const shownBefore = JSON.stringify(before === undefined ? [] : archive.operations(before));
    for (const project of ['p-0', 'p-1', 'p-2']) archive.prune(project, count - 300);
    expect(archive.rows).toBeLessThan(count / 2);
    expect(JSON.stringify(before === undefined ? [] : archive.operations(before))).toBe(
      shownBefore,
    );
    for (const i of [0, count - 301, count - 300, count - 1]) {
      const found = archive.find(`p-${i % 3}`, ended(i).id);
      expect(found === undefined ? undefined : JSON.stringify(found)).toBe(
        i >= count - 300 ? JSON.stringify(ended(i)) : undefined,
      );
    }
    const now = archive.window('p-2');
    expect(now === undefined ? 0 : archive.operations(now).length).toBe(100);
    archive.add(ended(count));
    expect(archive.find('p-0', ended(count).id)).toBeDefined();
  });

  it('prunes a month of cron operations down to the retention, and replays to the same state', () => {
    const sim = new Simulation({ seed: 3, profile: { operationRetentionMs: 86_400_000 } });
    const created = sim.request('POST', '/projects', { project: {} }).body;
    sim.addWorkload({
      kind: 'cron',
      endpointId: created.endpoints[0].id,
      every: '15m',
      session: { duration: '30s' },
    });
    sim.advance('30d');
    const kept = Object.keys(sim.state.projects[created.project.id]!.operations).length;
    const logged = [...sim.log].filter((e) => e.type === 'OperationCreated').length;
    expect(kept).toBeLessThan(logged / 10);
    expect(Simulation.replay(sim.log).state).toEqual(sim.state);
  });
});

describe('ended operations in a simulation', () => {
  function givenProject(options: ConstructorParameters<typeof Simulation>[0] = {}) {
    const sim = new Simulation({ seed: 7, ...options });
    const created = sim.request('POST', '/projects', { project: {} }).body;
    const projectId = created.project.id as string;
    const endpointId = created.endpoints[0].id as string;
    const operations = () => sim.state.projects[projectId]!.operations;
    return { sim, projectId, endpointId, operations };
  }

  it('shows them in snapshots, through the API and in time travel, in creation order', () => {
    const { sim, projectId, endpointId, operations } = givenProject();
    sim.advance('1h');
    sim.request('POST', `/projects/${projectId}/endpoints/${endpointId}/restart`);
    sim.advance('1h');
    const all = Object.values(operations());
    expect(all.length).toBeGreaterThan(3);
    expect(all.every((o) => o.status === 'finished')).toBe(true);
    expect(all.map((o) => o.sortKey)).toEqual([...all.map((o) => o.sortKey)].sort((a, b) => a - b));
    for (const operation of all)
      expect(sim.request('GET', `/projects/${projectId}/operations/${operation.id}`).status).toBe(
        200,
      );
    const listed = sim.request('GET', `/projects/${projectId}/operations?limit=2`).body;
    expect(listed.operations.map((o: { id: string }) => o.id)).toEqual(
      all
        .slice(-2)
        .reverse()
        .map((o) => o.id),
    );
    const earlier = sim.stateAt(sim.now() - 3_600_000).projects[projectId]!.operations;
    expect(Object.keys(earlier).length).toBeLessThan(all.length);
    expect(Object.keys(operations()).slice(0, Object.keys(earlier).length)).toEqual(
      Object.keys(earlier),
    );
  });

  it('keeps a pruned operation in snapshots and time travel from before the pruning', () => {
    const { sim, operations } = givenProject({ profile: { operationRetentionMs: 3_600_000 } });
    sim.advance('1m');
    const before = sim.state;
    const first = Object.keys(operations())[0] as string;
    const at = sim.now();
    sim.advance('2d');
    expect(operations()[first]).toBeUndefined();
    expect(Object.values(before.projects)[0]!.operations[first]?.status).toBe('finished');
    expect(Object.values(sim.stateAt(at).projects)[0]!.operations[first]).toBeDefined();
    expect(Simulation.replay(sim.log).state).toEqual(sim.state);
  });

  it('brings a deleted project back with its ended operations, each once', () => {
    const { sim, projectId, operations } = givenProject();
    sim.advance('1h');
    const ended = Object.keys(operations());
    expect(sim.request('DELETE', `/projects/${projectId}`).status).toBe(200);
    sim.advance('1h');
    expect(sim.request('POST', `/projects/${projectId}/recover`).status).toBeLessThan(300);
    sim.advance('1h');
    const back = Object.keys(operations());
    expect(back.slice(0, ended.length)).toEqual(ended);
    expect(new Set(back).size).toBe(back.length);
    expect(Simulation.replay(sim.log).state).toEqual(sim.state);
  });
});
