/**
 * Runs every row of docs/state-machine.md against the simulation: the document is the test's input,
 * so the documented state machine and the implemented one cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { markedTable } from '../support/markedTable.js';
import type { Connection } from '../../src/simulation/connection.js';

const doc = readFileSync(new URL('../../docs/state-machine.md', import.meta.url), 'utf8');
const rows = markedTable(doc, 'state-table').map(
  ([from, trigger, operations, rightAfter, settles, connections]) => ({
    from: from as string,
    trigger: trigger as string,
    operations: operations as string,
    rightAfter: rightAfter as string,
    settles: settles as string,
    connections: connections as string,
  }),
);

interface World {
  sim: Simulation;
  projectId: string;
  endpointId: string;
  connection?: Connection;
}

const settle = (w: World) =>
  w.sim.runUntil(
    (s) => Object.keys(s.projects[w.projectId]?.pendingOperations ?? {}).length === 0,
    { stepLimit: 100_000 },
  );
const endpointPath = (w: World) => `/projects/${w.projectId}/endpoints/${w.endpointId}`;
const patch = (w: World, endpoint: object) => w.sim.request('PATCH', endpointPath(w), { endpoint });

/** What each trigger of the table does; the subject compute may change (create compute). */
const TRIGGERS: Record<string, (w: World) => void> = {
  'create compute': (w) => {
    const branchId = w.sim.state.projects[w.projectId]!.defaultBranchId;
    const created = w.sim.request('POST', `/projects/${w.projectId}/endpoints`, {
      endpoint: { branch_id: branchId, type: 'read_only' },
    });
    expect(created.status).toBe(201);
    w.endpointId = created.body.endpoint.id;
  },
  'no connection for the suspend timeout': (w) =>
    w.sim.runUntil((s) =>
      Object.values(s.projects[w.projectId]!.operations).some(
        (o) => o.action === 'suspend_compute' && o.status === 'running',
      ),
    ),
  connection: (w) => {
    w.connection = w.sim.connect(w.endpointId);
  },
  restart: (w) => expect(w.sim.request('POST', `${endpointPath(w)}/restart`).status).toBe(200),
  'resize a fixed-size compute': (w) =>
    expect(patch(w, { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 1 }).status).toBe(200),
  'change autoscaling limits': (w) =>
    expect(patch(w, { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 2 }).status).toBe(
      200,
    ),
  'change the suspend timeout': (w) =>
    expect(patch(w, { suspend_timeout_seconds: 600 }).status).toBe(200),
  'change pooler settings': (w) => expect(patch(w, { pooler_enabled: true }).status).toBe(200),
  'move to another branch': (w) => {
    const branchId = w.sim.state.projects[w.projectId]!.branches as Record<
      string,
      { isDefault: boolean; id: string }
    >;
    const target = Object.values(branchId).find((b) => !b.isDefault)!.id;
    expect(patch(w, { branch_id: target }).status).toBe(200);
  },
  disable: (w) => expect(patch(w, { disabled: true }).status).toBe(200),
  'suspend request': (w) =>
    expect(w.sim.request('POST', `${endpointPath(w)}/suspend`).status).toBe(200),
  'start request': (w) =>
    expect(w.sim.request('POST', `${endpointPath(w)}/start`).status).toBe(200),
  delete: (w) => expect(w.sim.request('DELETE', endpointPath(w)).status).toBe(200),
  'availability check': (w) => {
    const project = w.sim.state.projects[w.projectId]!;
    const branch = project.branches[project.endpoints[w.endpointId]!.branchId]!;
    w.sim.advanceTo(branch.nextCheckAt as number);
  },
};

/**
 * A project whose primary compute is in `from`, with a spare branch and, if asked, an open connection
 * in a transaction (active: an idle connection would not keep the compute up until a late trigger).
 */
function given(from: string, withConnection: boolean): World {
  const sim = new Simulation({ seed: 3 });
  const created = sim.request('POST', '/projects', { project: { name: 'doc' } });
  const w: World = {
    sim,
    projectId: created.body.project.id,
    endpointId: created.body.endpoints[0].id,
  };
  settle(w);
  expect(
    sim.request('POST', `/projects/${w.projectId}/branches`, { branch: { name: 'spare' } }).status,
  ).toBe(201);
  settle(w);
  if (from === 'idle') {
    sim.runUntilIdle();
    expect(sim.state.projects[w.projectId]!.endpoints[w.endpointId]!.currentState).toBe('idle');
  }
  if (withConnection) {
    w.connection = sim.connect(w.endpointId);
    expect(w.connection.state).toBe('open');
    expect(w.connection.begin()).toEqual({ ok: true });
  }
  return w;
}

function stateOf(w: World): string {
  const endpoint = w.sim.state.projects[w.projectId]!.endpoints[w.endpointId];
  return endpoint === undefined
    ? 'deleted'
    : `${endpoint.currentState} / ${endpoint.pendingState ?? '-'}`;
}

describe('docs/state-machine.md', () => {
  it('has a table with a known trigger on every row', () => {
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(Object.keys(TRIGGERS), row.trigger).toContain(row.trigger);
  });

  it.each(rows)(
    '$from + $trigger → $operations, $rightAfter, settles $settles, connections $connections',
    (row) => {
      const opensFirst = row.connections === 'dropped' || row.connections === 'kept';
      const w = given(row.from, opensFirst);
      const before = new Set(Object.keys(w.sim.state.projects[w.projectId]!.operations));
      TRIGGERS[row.trigger]!(w);

      const recorded = Object.values(w.sim.state.projects[w.projectId]!.operations).filter(
        (o) => !before.has(o.id),
      );
      expect(recorded.map((o) => o.action).join(', ') || '-', 'operations').toBe(row.operations);
      recorded.forEach((o, i) =>
        expect(o.status, `${o.action} status`).toBe(i === 0 ? 'running' : 'scheduling'),
      );
      expect(stateOf(w), 'right after').toBe(
        row.rightAfter === 'deleted' ? 'deleted' : row.rightAfter,
      );
      if (row.connections === 'waits, then open') expect(w.connection?.state).toBe('connecting');
      if (row.connections === 'open at once') expect(w.connection?.state).toBe('open');

      settle(w);
      const settled = stateOf(w);
      expect(settled === 'deleted' ? 'deleted' : settled.replace(' / -', ''), 'settles').toBe(
        row.settles,
      );
      switch (row.connections) {
        case 'dropped':
          expect(w.connection?.state).toBe('dropped');
          expect(w.connection?.error?.sqlstate).toMatch(/^(57P01|08001)$/);
          break;
        case 'kept':
        case 'waits, then open':
        case 'open at once':
          expect(w.connection?.state).toBe('open');
          break;
        default:
          expect(row.connections).toBe('-');
      }
    },
  );
});
