/**
 * Model-based test: random sequences of requests, connections and clock moves against a simple model
 * of what exists, checking the control plane's invariants after every step and at the end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, Simulation, type SimState } from '../../src/index.js';
import {
  OPERATION_ACTIONS,
  isTerminal,
  type OperationAction,
  type OperationStatus,
} from '../../src/entries/model.js';
import type { Connection } from '../../src/simulation/connection.js';
import { immerFold } from '../support/immerFold.js';
import { formatInstant } from '../../src/core/instant.js';
import { formatLsn, lsnAt } from '../../src/domain/lsn.js';

/** The roles (name → password) and databases (name → owner) of one branch, in creation order. */
interface BranchConfig {
  roles: Map<string, string>;
  databases: Map<string, string>;
}
interface Model {
  projects: {
    id: string;
    branches: string[];
    endpoints: string[];
    config: Map<string, BranchConfig>;
    /** Branches deleted without hard_delete: recoverable until 7 days after `deletedAt`. */
    deleted: { id: string; config: BranchConfig; deletedAt: number }[];
  }[];
  connections: Connection[];
}
interface Real {
  sim: Simulation;
}
type Cmd = fc.Command<Model, Real>;

const pick = <T>(items: readonly T[], index: number): T | undefined =>
  items.length === 0 ? undefined : items[index % items.length];

/** Sends a request and checks what every response must satisfy; returns the response. */
function send(real: Real, method: string, path: string, body?: unknown) {
  const before = real.sim.state;
  const logLength = real.sim.log.length;
  const response = real.sim.request(method, path, body);
  expect(response.status, `${method} ${path} → ${JSON.stringify(response.body)}`).toBeLessThan(500);
  if (response.status >= 400) {
    expect(response.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(real.sim.state, 'a refusal leaves state unchanged').toBe(before);
    // A 423 is recorded (RequestLocked, for metrics); any other refusal appends nothing.
    const appended = response.status === 423 ? 1 : 0;
    expect(real.sim.log.length, 'a refusal appends nothing but a 423 record').toBe(
      logLength + appended,
    );
    if (appended === 1) expect(real.sim.log.get(logLength)?.type).toBe('RequestLocked');
  }
  checkInvariants(real.sim.state);
  return response;
}

function checkInvariants(state: SimState): void {
  for (const project of Object.values(state.projects)) {
    expect(project.id).toMatch(/^[a-z]+-[a-z]+-\d{6}$/);
    const readWriteByBranch = new Map<string, number>();
    for (const endpoint of Object.values(project.endpoints)) {
      expect(endpoint.id).toMatch(/^ep-[a-z]+-[a-z]+-\d{6}$/);
      expect(
        project.branches[endpoint.branchId],
        `compute ${endpoint.id} sits on an existing branch`,
      ).toBeDefined();
      if (endpoint.type === 'read_write')
        readWriteByBranch.set(
          endpoint.branchId,
          (readWriteByBranch.get(endpoint.branchId) ?? 0) + 1,
        );
      const live = Object.keys(state.liveConnections[endpoint.id] ?? {}).map(
        (id) => state.connections[id]!,
      );
      expect(endpoint.directConnections, 'direct count = live direct connections').toBe(
        live.filter((c) => !c.pooled).length,
      );
      expect(endpoint.pooledConnections, 'pooled count = live pooled connections').toBe(
        live.filter((c) => c.pooled).length,
      );
      const active = live.filter(
        (c) =>
          c.status === 'open' &&
          (c.holdMs !== undefined || c.queryUntil !== undefined || c.inTransaction === true),
      );
      expect(endpoint.activeConnections, 'active count = open connections doing work').toBe(
        active.length,
      );
      if (active.length > 0)
        expect(endpoint.idleSince, `${endpoint.id}: idle clock runs while work is under way`).toBe(
          undefined,
        );
    }
    for (const count of readWriteByBranch.values())
      expect(count, 'at most one read_write compute per branch').toBeLessThanOrEqual(1);
    const branches = Object.values(project.branches);
    for (const branch of branches) expect(branch.id).toMatch(/^br-[a-z]+-[a-z]+-\d{6}$/);
    expect(
      branches.filter((b) => b.isDefault).map((b) => b.id),
      'exactly one default branch per project, the one the project names',
    ).toEqual([project.defaultBranchId]);
    expect(new Set(branches.map((b) => b.name)).size, 'branch names are unique').toBe(
      branches.length,
    );
    for (const branch of branches) {
      const seen = new Set<string>();
      for (let at = branch; at.parentId !== undefined; at = project.branches[at.parentId]!) {
        expect(project.branches[at.parentId], `${at.id}: its parent exists`).toBeDefined();
        expect(seen.has(at.id), `${branch.id}: no cycle of parents`).toBe(false);
        seen.add(at.id);
      }
    }
    for (const branch of branches) {
      const roleNames = branch.roles.map((r) => r.name);
      const databaseNames = branch.databases.map((d) => d.name);
      expect(new Set(roleNames).size, 'role names are unique per branch').toBe(roleNames.length);
      expect(new Set(databaseNames).size, 'database names are unique per branch').toBe(
        databaseNames.length,
      );
      for (const database of branch.databases)
        expect(roleNames, `the owner of ${database.name} is a role of its branch`).toContain(
          database.ownerName,
        );
    }
    for (const operation of Object.values(project.operations)) {
      expect(operation.id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
    const busy = new Set(
      Object.keys(project.pendingOperations).map((id) => project.operations[id]?.endpointId),
    );
    for (const endpoint of Object.values(project.endpoints)) {
      if (busy.has(endpoint.id)) continue;
      expect(endpoint.pendingState, `${endpoint.id}: pending state with nothing under way`).toBe(
        undefined,
      );
      const waiting = Object.keys(state.liveConnections[endpoint.id] ?? {}).filter(
        (id) => state.connections[id]?.status === 'connecting',
      );
      expect(waiting, `${endpoint.id}: clients wait with nothing under way`).toEqual([]);
    }
    if (project.detached) {
      const running = Object.keys(project.pendingOperations)
        .map((id) => project.operations[id]!)
        .filter((o) => o.status === 'running' && o.action !== 'tenant_reattach');
      expect(running, 'nothing but a reattach runs while storage is detached').toEqual([]);
      for (const endpoint of Object.values(project.endpoints))
        expect(endpoint.currentState, 'no compute runs while storage is detached').not.toBe(
          'active',
        );
    }
  }
}

/**
 * The model's lock rule (fidelity.md, audit 2026-11-23): a project refuses mutating requests with 423
 * while it has an unfinished operation other than the background availability check, or as many
 * unfinished operations as the profile's cap.
 */
function predictLocked(state: SimState, projectId: string): boolean {
  const project = state.projects[projectId]!;
  const unfinished = Object.keys(project.pendingOperations).map((id) => project.operations[id]!);
  return (
    unfinished.some((o) => o.action !== 'check_availability') ||
    unfinished.length >= DEFAULT_PROFILE.locks.maxUnfinishedOperations
  );
}

/** Whether a branch is still being created (the service answers 422 `branch not ready yet`). */
function predictNotReady(state: SimState, projectId: string, branchId: string): boolean {
  return state.projects[projectId]!.branches[branchId]!.currentState === 'init';
}

/** What the model predicts of a mutating request, in the order the service checks. */
interface Prediction {
  /** 400 for invalid input: `true` predicted, `false` impossible, `undefined` not predicted. */
  readonly invalid?: boolean | undefined;
  readonly conflict?: boolean;
  readonly notReady?: boolean;
  readonly locked: boolean;
  /** The change is no change at all: accepted whatever the locks say. */
  readonly noop?: boolean;
  readonly success: readonly number[];
}

/** The response's status is the one predicted: 409, 422 and 423 exactly when the model says. */
function expectPredicted(status: number, prediction: Prediction): void {
  if (prediction.noop === true) return void expect(prediction.success).toContain(status);
  if (prediction.invalid === true) return void expect(status).toBe(400);
  if (status === 400 && prediction.invalid === undefined) return;
  const refusal = prediction.conflict
    ? 409
    : prediction.notReady
      ? 422
      : prediction.locked
        ? 423
        : undefined;
  if (refusal !== undefined) expect(status).toBe(refusal);
  else expect(prediction.success).toContain(status);
}

type ModelProject = Model['projects'][number];
const hasComputes = (p: ModelProject) => p.endpoints.length > 0;

/** The project a command acts on: the `index`-th of those matching `where`, waited for if polite. */
function target(
  model: Model,
  real: Real,
  index: number,
  politely: boolean,
  where: (p: ModelProject) => boolean = () => true,
): ModelProject {
  const project = pick(model.projects.filter(where), index) as ModelProject;
  settle(real, project.id, politely);
  return project;
}

/** A polite client first waits until the project has no unfinished operation (else it may get 423). */
function settle(real: Real, projectId: string, politely: boolean): void {
  if (!politely) return;
  real.sim.runUntil(
    (s) => Object.keys(s.projects[projectId]?.pendingOperations ?? {}).length === 0,
    { stepLimit: 100_000 },
  );
}

/** Whether `[min, max]` is a size the service accepts (autoscaling up to 16 CU, at most 8 CU wide). */
const validSize = (min: number, max: number) =>
  min <= max && (min === max || max <= 16) && max - min <= 8;

const sizeArb = fc
  .constantFrom([0.25, 0.25], [0.25, 2], [1, 1], [2, 8], [0.5, 16], [20, 20], [1, 12], [3, 2])
  .map((size) => [...size]);

class CreateProjectCmd implements Cmd {
  check = () => true;
  run(model: Model, real: Real) {
    const response = send(real, 'POST', '/projects', { project: { name: 'p' } });
    expect(response.status).toBe(201);
    const { project, branch, endpoints, roles } = response.body;
    const owner = roles[0] as { name: string; password: string };
    const config: BranchConfig = {
      roles: new Map([[owner.name, owner.password]]),
      databases: new Map([['neondb', 'neondb_owner']]),
    };
    model.projects.push({
      id: project.id,
      branches: [branch.id],
      endpoints: [endpoints[0].id],
      config: new Map([[branch.id, config]]),
      deleted: [],
    });
    checkConfig(model.projects.at(-1)!, branch.id, real.sim.state);
  }
  toString = () => 'createProject';
}

class CreateBranchCmd implements Cmd {
  constructor(
    readonly politely: boolean,
    readonly p: number,
    readonly computes: number,
  ) {}
  check = (m: Model) => m.projects.length > 0;
  run(model: Model, real: Real) {
    const project = target(model, real, this.p, this.politely);
    const kinds = ['read_write', 'read_only'].slice(0, this.computes);
    const body = { endpoints: kinds.map((type) => ({ type })) };
    const before = real.sim.state;
    // A branch without a parent named comes from the project's default (which set_as_default moves).
    const parentId = before.projects[project.id]!.defaultBranchId;
    const response = send(real, 'POST', `/projects/${project.id}/branches`, body);
    expectPredicted(response.status, {
      invalid: false,
      notReady: predictNotReady(before, project.id, parentId),
      locked: predictLocked(before, project.id),
      success: [201],
    });
    if (response.status === 201) {
      const branchId = response.body.branch.id as string;
      project.branches.push(branchId);
      for (const e of response.body.endpoints) project.endpoints.push(e.id);
      // A child starts with a copy of its parent's (here the default branch's) roles and databases.
      const parent = project.config.get(parentId)!;
      project.config.set(branchId, {
        roles: new Map(parent.roles),
        databases: new Map(parent.databases),
      });
      checkConfig(project, branchId, real.sim.state);
    }
  }
  toString = () => `createBranch(${this.p}, ${this.computes} computes)`;
}

class CreateEndpointCmd implements Cmd {
  constructor(
    readonly politely: boolean,
    readonly p: number,
    readonly b: number,
    readonly type: string,
    readonly size: number[],
  ) {}
  check = (m: Model) => m.projects.length > 0;
  run(model: Model, real: Real) {
    const project = target(model, real, this.p, this.politely);
    const branchId = pick(project.branches, this.b)!;
    const [min, max] = this.size;
    const hasReadWrite = Object.values(real.sim.state.projects[project.id]!.endpoints).some(
      (e) => e.branchId === branchId && e.type === 'read_write',
    );
    const before = real.sim.state;
    const response = send(real, 'POST', `/projects/${project.id}/endpoints`, {
      endpoint: {
        branch_id: branchId,
        type: this.type,
        autoscaling_limit_min_cu: min,
        autoscaling_limit_max_cu: max,
      },
    });
    expectPredicted(response.status, {
      invalid: !validSize(min!, max!),
      conflict: this.type === 'read_write' && hasReadWrite,
      notReady: predictNotReady(before, project.id, branchId),
      locked: predictLocked(before, project.id),
      success: [201],
    });
    if (response.status === 201) project.endpoints.push(response.body.endpoint.id);
  }
  toString = () => `createEndpoint(${this.p}, ${this.b}, ${this.type}, ${this.size.join('-')})`;
}

class UpdateEndpointCmd implements Cmd {
  constructor(
    readonly politely: boolean,
    readonly p: number,
    readonly e: number,
    readonly b: number,
    readonly change: string,
    readonly size: number[],
  ) {}
  check = (m: Model) => m.projects.some((p) => p.endpoints.length > 0);
  run(model: Model, real: Real) {
    const project = target(model, real, this.p, this.politely, hasComputes);
    const endpointId = pick(project.endpoints, this.e)!;
    const body: Record<string, unknown> = {
      size: { autoscaling_limit_min_cu: this.size[0], autoscaling_limit_max_cu: this.size[1] },
      timeout: { suspend_timeout_seconds: 60 },
      never: { suspend_timeout_seconds: -1 },
      branch: { branch_id: pick(project.branches, this.b) },
      disable: { disabled: true },
      enable: { disabled: false },
      settings: { settings: { pg_settings: { work_mem: '64MB' } } },
    }[this.change] as Record<string, unknown>;
    const before = real.sim.state;
    const endpoint = before.projects[project.id]!.endpoints[endpointId]!;
    const branchId = body['branch_id'] as string | undefined;
    const moves = this.change === 'branch' && branchId !== endpoint.branchId;
    const [min, max] = this.size as [number, number];
    const noop = {
      size: endpoint.minCu === min && endpoint.maxCu === max,
      timeout: endpoint.suspendTimeoutSeconds === 60,
      never: endpoint.suspendTimeoutSeconds === -1,
      branch: !moves,
      disable: endpoint.disabled,
      enable: !endpoint.disabled,
      settings: JSON.stringify(endpoint.pgSettings) === JSON.stringify({ work_mem: '64MB' }),
    }[this.change] as boolean;
    const response = send(real, 'PATCH', `/projects/${project.id}/endpoints/${endpointId}`, {
      endpoint: body,
    });
    expectPredicted(response.status, {
      invalid: this.change === 'size' && !validSize(min, max) ? true : undefined,
      conflict:
        moves &&
        endpoint.type === 'read_write' &&
        Object.values(before.projects[project.id]!.endpoints).some(
          (e) => e.branchId === branchId && e.type === 'read_write',
        ),
      notReady: moves && predictNotReady(before, project.id, branchId!),
      locked: predictLocked(before, project.id),
      noop,
      success: [200],
    });
  }
  toString = () => `update(${this.p}, ${this.e}, ${this.change})`;
}

class ControlCmd implements Cmd {
  constructor(
    readonly politely: boolean,
    readonly p: number,
    readonly e: number,
    readonly verb: string,
  ) {}
  check = (m: Model) => m.projects.some((p) => p.endpoints.length > 0);
  run(model: Model, real: Real) {
    const project = target(model, real, this.p, this.politely, hasComputes);
    const endpointId = pick(project.endpoints, this.e)!;
    const method = this.verb === 'delete' ? 'DELETE' : 'POST';
    const path = `/projects/${project.id}/endpoints/${endpointId}${this.verb === 'delete' ? '' : `/${this.verb}`}`;
    const before = real.sim.state;
    const response = send(real, method, path);
    if (this.verb === 'delete') expect([200, 204]).toContain(response.status);
    else
      expectPredicted(response.status, {
        invalid:
          this.verb !== 'suspend' && before.projects[project.id]!.endpoints[endpointId]!.disabled,
        locked: predictLocked(before, project.id),
        success: [200],
      });
    if (this.verb === 'delete')
      project.endpoints = project.endpoints.filter((id) => id !== endpointId);
  }
  toString = () => `${this.verb}(${this.p}, ${this.e})`;
}

class DeleteBranchCmd implements Cmd {
  constructor(
    readonly politely: boolean,
    readonly p: number,
    readonly b: number,
    readonly hard: boolean,
  ) {}
  check = (m: Model) => m.projects.some((p) => p.branches.length > 1);
  run(model: Model, real: Real) {
    const project = target(model, real, this.p, this.politely, (p) => p.branches.length > 1);
    const branchId = pick(project.branches.slice(1), this.b)!;
    const before = real.sim.state;
    const response = send(
      real,
      'DELETE',
      `/projects/${project.id}/branches/${branchId}${this.hard ? '?hard_delete=true' : ''}`,
    );
    expectPredicted(response.status, {
      invalid:
        branchId === before.projects[project.id]!.defaultBranchId ||
        before.projects[project.id]!.branches[branchId]!.protected ||
        Object.values(before.projects[project.id]!.branches).some((b) => b.parentId === branchId),
      locked: predictLocked(before, project.id),
      success: [200],
    });
    if (response.status === 200) {
      project.branches = project.branches.filter((id) => id !== branchId);
      if (!this.hard)
        project.deleted.push({
          id: branchId,
          config: project.config.get(branchId)!,
          deletedAt: real.sim.now(),
        });
      project.config.delete(branchId);
      project.endpoints = project.endpoints.filter(
        (id) => real.sim.state.projects[project.id]!.endpoints[id] !== undefined,
      );
    }
  }
  toString = () => `deleteBranch(${this.p}, ${this.b}${this.hard ? ', hard' : ''})`;
}

/**
 * Recovering a deleted branch: 404 once its 7 days are over, 409 when its name was taken since or
 * its parent is deleted, 423 while the project is locked; else it is back, with its roles,
 * databases and computes (idle).
 */
class RecoverBranchCmd implements Cmd {
  constructor(
    readonly politely: boolean,
    readonly p: number,
    readonly b: number,
  ) {}
  check = (m: Model) => m.projects.some((p) => p.deleted.length > 0);
  run(model: Model, real: Real) {
    const project = target(model, real, this.p, this.politely, (p) => p.deleted.length > 0);
    const deleted = pick(project.deleted, this.b)!;
    const before = real.sim.state;
    const live = before.projects[project.id]!;
    const expired = real.sim.now() >= deleted.deletedAt + 7 * 86_400_000;
    const kept = live.deletedBranches?.[deleted.id];
    expect(kept === undefined, 'kept exactly as long as its window').toBe(expired);
    const response = send(real, 'POST', `/projects/${project.id}/branches/${deleted.id}/recover`);
    if (expired) {
      expect(response.status).toBe(404);
      project.deleted = project.deleted.filter((d) => d !== deleted);
      return;
    }
    const branches = Object.values(live.branches);
    expectPredicted(response.status, {
      conflict:
        branches.some((b) => b.name === kept!.branch.name) ||
        (kept!.branch.parentId !== undefined && live.branches[kept!.branch.parentId] === undefined),
      locked: predictLocked(before, project.id),
      success: [200],
    });
    if (response.status !== 200) return;
    project.deleted = project.deleted.filter((d) => d !== deleted);
    project.branches.push(deleted.id);
    project.config.set(deleted.id, deleted.config);
    const endpointIds = (response.body.endpoints as { id: string }[]).map((e) => e.id);
    expect(endpointIds.sort()).toEqual(Object.keys(kept!.endpoints).sort());
    project.endpoints.push(...endpointIds);
    const after = real.sim.state.projects[project.id]!;
    for (const id of endpointIds) expect(after.endpoints[id]!.currentState).toBe('idle');
    checkConfig(project, deleted.id, real.sim.state);
  }
  toString = () => `recoverBranch(${this.p}, ${this.b})`;
}

/** The branch's roles and databases in state equal the model's (passwords included). */
function checkConfig(project: ModelProject, branchId: string, state: SimState): void {
  const branch = state.projects[project.id]!.branches[branchId]!;
  const expected = project.config.get(branchId)!;
  const sorted = (entries: Iterable<[string, string]>) =>
    [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  expect(
    sorted(branch.roles.map((r) => [r.name, r.password])),
    'roles as the model has them',
  ).toEqual(sorted(expected.roles));
  expect(
    sorted(branch.databases.map((d) => [d.name, d.ownerName])),
    'databases as the model has them',
  ).toEqual(sorted(expected.databases));
}

const ROLE_NAMES = ['app', 'web', 'neondb_owner', 'pg_bad', 'r'.repeat(64)];
const DATABASE_NAMES = ['appdb', 'shop', 'neondb', 'template1', 'd'.repeat(64)];
const OWNER_NAMES = ['app', 'web', 'neondb_owner', 'ghost'];
const roleNameValid = (name: string) => !name.startsWith('pg_') && name.length <= 63;
const databaseNameValid = (name: string) => name !== 'template1' && name.length <= 63;

/** A role or database request on one branch of a project, checked against the model. */
abstract class BranchConfigCmd implements Cmd {
  constructor(
    readonly politely: boolean,
    readonly p: number,
    readonly b: number,
  ) {}
  check = (m: Model) => m.projects.length > 0;
  run(model: Model, real: Real) {
    const project = target(model, real, this.p, this.politely);
    const branchId = pick(project.branches, this.b)!;
    const config = project.config.get(branchId)!;
    const path = `/projects/${project.id}/branches/${branchId}`;
    const { method, suffix, body, refusals, success } = this.request(config);
    const response = send(real, method, `${path}${suffix}`, body);
    if (refusals.length > 0) expect(refusals).toContain(response.status);
    else if (this.politely) expect(response.status).toBe(success);
    else expect([success, 423]).toContain(response.status);
    if (response.status === success) this.apply(config, response.body);
    checkConfig(project, branchId, real.sim.state);
  }
  /** The request, the statuses it may be refused with (none: it must succeed) and its success. */
  abstract request(config: BranchConfig): {
    method: string;
    suffix: string;
    body?: unknown;
    refusals: number[];
    success: number;
  };
  /** What a successful request changes in the model. */
  abstract apply(config: BranchConfig, body: { role?: { password: string } }): void;
}

class CreateRoleCmd extends BranchConfigCmd {
  constructor(
    politely: boolean,
    p: number,
    b: number,
    readonly name: string,
  ) {
    super(politely, p, b);
  }
  override request(config: BranchConfig) {
    const refusals = [
      ...(roleNameValid(this.name) ? [] : [400]),
      ...(config.roles.has(this.name) ? [409] : []),
    ];
    return {
      method: 'POST',
      suffix: '/roles',
      body: { role: { name: this.name } },
      refusals,
      success: 201,
    };
  }
  override apply(config: BranchConfig, body: { role?: { password: string } }) {
    config.roles.set(this.name, body.role!.password);
  }
  override toString = () => `createRole(${this.p}, ${this.b}, ${this.name.slice(0, 8)})`;
}

class ResetPasswordCmd extends BranchConfigCmd {
  constructor(
    politely: boolean,
    p: number,
    b: number,
    readonly name: string,
  ) {
    super(politely, p, b);
  }
  override request(config: BranchConfig) {
    const suffix = `/roles/${this.name}/reset_password`;
    return {
      method: 'POST',
      suffix,
      refusals: config.roles.has(this.name) ? [] : [404],
      success: 200,
    };
  }
  override apply(config: BranchConfig, body: { role?: { password: string } }) {
    expect(body.role!.password).not.toBe(config.roles.get(this.name));
    config.roles.set(this.name, body.role!.password);
  }
  override toString = () => `resetPassword(${this.p}, ${this.b}, ${this.name.slice(0, 8)})`;
}

class DeleteRoleCmd extends BranchConfigCmd {
  constructor(
    politely: boolean,
    p: number,
    b: number,
    readonly name: string,
  ) {
    super(politely, p, b);
  }
  override request(config: BranchConfig) {
    const owns = [...config.databases.values()].includes(this.name);
    const refusals = !config.roles.has(this.name) ? [204] : owns ? [409] : [];
    return { method: 'DELETE', suffix: `/roles/${this.name}`, refusals, success: 200 };
  }
  override apply(config: BranchConfig) {
    config.roles.delete(this.name);
  }
  override toString = () => `deleteRole(${this.p}, ${this.b}, ${this.name.slice(0, 8)})`;
}

class CreateDatabaseCmd extends BranchConfigCmd {
  constructor(
    politely: boolean,
    p: number,
    b: number,
    readonly name: string,
    readonly owner: string,
  ) {
    super(politely, p, b);
  }
  override request(config: BranchConfig) {
    const refusals = [
      ...(databaseNameValid(this.name) ? [] : [400]),
      ...(config.databases.has(this.name) ? [409] : []),
      ...(config.roles.has(this.owner) ? [] : [400]),
    ];
    const body = { database: { name: this.name, owner_name: this.owner } };
    return { method: 'POST', suffix: '/databases', body, refusals, success: 201 };
  }
  override apply(config: BranchConfig) {
    config.databases.set(this.name, this.owner);
  }
  override toString = () =>
    `createDatabase(${this.p}, ${this.b}, ${this.name.slice(0, 8)}, ${this.owner})`;
}

class UpdateDatabaseCmd extends BranchConfigCmd {
  constructor(
    politely: boolean,
    p: number,
    b: number,
    readonly name: string,
    readonly change: { name?: string; owner_name?: string },
  ) {
    super(politely, p, b);
  }
  override request(config: BranchConfig) {
    const owner = config.databases.get(this.name);
    const rename = this.change.name !== undefined && this.change.name !== this.name;
    const reown = this.change.owner_name !== undefined && this.change.owner_name !== owner;
    const refusals =
      owner === undefined
        ? [404]
        : [
            ...(rename && !databaseNameValid(this.change.name!) ? [400] : []),
            ...(rename && config.databases.has(this.change.name!) ? [409] : []),
            ...(reown && !config.roles.has(this.change.owner_name!) ? [400] : []),
          ];
    const body = { database: this.change };
    return { method: 'PATCH', suffix: `/databases/${this.name}`, body, refusals, success: 200 };
  }
  override apply(config: BranchConfig) {
    const owner = this.change.owner_name ?? config.databases.get(this.name)!;
    config.databases.delete(this.name);
    config.databases.set(this.change.name ?? this.name, owner);
  }
  override toString = () =>
    `updateDatabase(${this.p}, ${this.b}, ${this.name}, ${JSON.stringify(this.change)})`;
}

class DeleteDatabaseCmd extends BranchConfigCmd {
  constructor(
    politely: boolean,
    p: number,
    b: number,
    readonly name: string,
  ) {
    super(politely, p, b);
  }
  override request(config: BranchConfig) {
    const refusals = config.databases.has(this.name) ? [] : [204];
    return { method: 'DELETE', suffix: `/databases/${this.name}`, refusals, success: 200 };
  }
  override apply(config: BranchConfig) {
    config.databases.delete(this.name);
  }
  override toString = () => `deleteDatabase(${this.p}, ${this.b}, ${this.name.slice(0, 8)})`;
}

class ConnectCmd implements Cmd {
  constructor(
    readonly p: number,
    readonly e: number,
    readonly pooled: boolean,
  ) {}
  check = (m: Model) => m.projects.some((p) => p.endpoints.length > 0);
  run(model: Model, real: Real) {
    const project = pick(
      model.projects.filter((p) => p.endpoints.length > 0),
      this.p,
    )!;
    const endpointId = pick(project.endpoints, this.e)!;
    const connection = real.sim.connect(endpointId, { pooled: this.pooled });
    expect(['connecting', 'open', 'refused']).toContain(connection.state);
    if (connection.state === 'refused')
      expect(connection.error?.sqlstate).toMatch(/^(08004|53300)$/);
    model.connections.push(connection);
    checkInvariants(real.sim.state);
  }
  toString = () => `connect(${this.p}, ${this.e}, ${this.pooled})`;
}

/** A burst of clients: one connection to every compute of a project at the same instant. */
class ConnectBurstCmd implements Cmd {
  constructor(readonly p: number) {}
  check = (m: Model) => m.projects.some(hasComputes);
  run(model: Model, real: Real) {
    const project = pick(model.projects.filter(hasComputes), this.p)!;
    for (const endpointId of project.endpoints) {
      const connection = real.sim.connect(endpointId);
      expect(['connecting', 'open', 'refused']).toContain(connection.state);
      model.connections.push(connection);
      checkInvariants(real.sim.state);
    }
  }
  toString = () => `connectBurst(${this.p})`;
}

class CloseCmd implements Cmd {
  constructor(readonly c: number) {}
  check = (m: Model) => m.connections.length > 0;
  run(model: Model, real: Real) {
    const connection = pick(model.connections, this.c)!;
    connection.close();
    expect(['closed', 'refused', 'dropped']).toContain(connection.state);
    checkInvariants(real.sim.state);
  }
  toString = () => `close(${this.c})`;
}

/** A client works on one of its connections: a statement, BEGIN or COMMIT. */
class WorkCmd implements Cmd {
  constructor(
    readonly c: number,
    readonly what: 'query' | 'begin' | 'commit',
    readonly ms: number,
  ) {}
  check = (m: Model) => m.connections.length > 0;
  run(model: Model, real: Real) {
    const connection = pick(model.connections, this.c)!;
    const wasOpen = connection.state === 'open';
    const busy = connection.activity === 'active';
    const result =
      this.what === 'query'
        ? connection.query(this.ms)
        : this.what === 'begin'
          ? connection.begin()
          : connection.commit();
    expect(result.ok, 'accepted exactly when open (and free, for a statement)').toBe(
      wasOpen && !(this.what === 'query' && busy),
    );
    if (result.ok && this.what === 'query') expect(connection.activity).toBe('active');
    checkInvariants(real.sim.state);
  }
  toString = () => `${this.what}(${this.c}, ${this.ms})`;
}

class AdvanceCmd implements Cmd {
  constructor(readonly ms: number) {}
  check = () => true;
  run(_model: Model, real: Real) {
    const before = real.sim.now();
    real.sim.advance(this.ms);
    expect(real.sim.now()).toBe(before + this.ms);
    checkInvariants(real.sim.state);
  }
  toString = () => `advance(${this.ms})`;
}

/** A well-behaved client: waits until the project has no unfinished operation. */
class WaitForOperationsCmd implements Cmd {
  constructor(readonly p: number) {}
  check = (m: Model) => m.projects.length > 0;
  run(model: Model, real: Real) {
    const project = pick(model.projects, this.p)!;
    real.sim.runUntil(
      (s) => Object.keys(s.projects[project.id]?.pendingOperations ?? {}).length === 0,
      { stepLimit: 100_000 },
    );
    checkInvariants(real.sim.state);
  }
  toString = () => `waitForOperations(${this.p})`;
}

class PageOperationsCmd implements Cmd {
  constructor(
    readonly p: number,
    readonly limit: number,
  ) {}
  check = (m: Model) => m.projects.length > 0;
  run(model: Model, real: Real) {
    const project = pick(model.projects, this.p)!;
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const query = `limit=${this.limit}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
      const response = send(real, 'GET', `/projects/${project.id}/operations?${query}`);
      expect(response.status).toBe(200);
      const ids = response.body.operations.map((o: { id: string }) => o.id);
      if (ids.length === 0) break;
      seen.push(...ids);
      cursor = response.body.pagination.cursor;
    }
    const all = Object.values(real.sim.state.projects[project.id]!.operations)
      .map((o) => o.id)
      .reverse();
    expect(seen, 'paging neither skips nor repeats an operation').toEqual(all);
  }
  toString = () => `pageOperations(${this.p}, ${this.limit})`;
}

class PatchBranchCmd implements Cmd {
  constructor(
    readonly p: number,
    readonly b: number,
    readonly change: { name: string } | { protected: boolean },
  ) {}
  check = (m: Model) => m.projects.length > 0;
  run(model: Model, real: Real) {
    const project = pick(model.projects, this.p)!;
    const branchId = pick(project.branches, this.b)!;
    const response = send(real, 'PATCH', `/projects/${project.id}/branches/${branchId}`, {
      branch: this.change,
    });
    expect([200, 409]).toContain(response.status);
    if (response.status === 200) expect(response.body.branch).toMatchObject(this.change);
  }
  toString = () => `patchBranch(${this.p}, ${this.b}, ${JSON.stringify(this.change)})`;
}

class SetDefaultBranchCmd implements Cmd {
  constructor(
    readonly politely: boolean,
    readonly p: number,
    readonly b: number,
  ) {}
  check = (m: Model) => m.projects.length > 0;
  run(model: Model, real: Real) {
    const project = target(model, real, this.p, this.politely);
    const branchId = pick(project.branches, this.b)!;
    const path = `/projects/${project.id}/branches/${branchId}/set_as_default`;
    const response = send(real, 'POST', path);
    expect([200, 423]).toContain(response.status);
    if (response.status === 200)
      expect(real.sim.state.projects[project.id]!.defaultBranchId).toBe(branchId);
  }
  toString = () => `setDefault(${this.p}, ${this.b})`;
}

/** Any attempt to delete the current default branch is refused, whatever else holds. */
class DeleteDefaultBranchCmd implements Cmd {
  constructor(readonly p: number) {}
  check = (m: Model) => m.projects.length > 0;
  run(model: Model, real: Real) {
    const project = pick(model.projects, this.p)!;
    const defaultId = real.sim.state.projects[project.id]!.defaultBranchId;
    const response = send(real, 'DELETE', `/projects/${project.id}/branches/${defaultId}`);
    expect(response.status, 'the default branch cannot be deleted').toBe(400);
  }
  toString = () => `deleteDefaultBranch(${this.p})`;
}

class PatchProjectCmd implements Cmd {
  constructor(
    readonly politely: boolean,
    readonly p: number,
    readonly retention: number,
  ) {}
  check = (m: Model) => m.projects.length > 0;
  run(model: Model, real: Real) {
    const project = target(model, real, this.p, this.politely);
    const response = send(real, 'PATCH', `/projects/${project.id}`, {
      project: { name: `p${this.retention}`, history_retention_seconds: this.retention },
    });
    expect([200, 423]).toContain(response.status);
    if (response.status === 200)
      expect(response.body.project.history_retention_seconds).toBe(this.retention);
  }
  toString = () => `patchProject(${this.p}, ${this.retention})`;
}

type Source = 'parent' | 'self' | 'other';
type Point = 'head' | 'recent' | 'ancient' | 'headLsn';

class RestoreBranchCmd implements Cmd {
  constructor(
    readonly politely: boolean,
    readonly p: number,
    readonly b: number,
    readonly source: Source,
    readonly o: number,
    readonly point: Point,
    readonly preserve: boolean,
  ) {}
  check = (m: Model) => m.projects.length > 0;
  run(model: Model, real: Real) {
    const project = target(model, real, this.p, this.politely);
    const before = real.sim.state.projects[project.id]!;
    const branchId = pick(project.branches, this.b)!;
    const branch = before.branches[branchId]!;
    const sourceId = {
      self: branchId,
      parent: branch.parentId ?? branchId,
      other: pick(project.branches, this.o)!,
    }[this.source];
    const now = real.sim.now();
    const point = {
      head: {},
      recent: { source_timestamp: formatInstant(now - 30_000) },
      ancient: { source_timestamp: '2000-01-01T00:00:00Z' },
      headLsn: { source_lsn: formatLsn(lsnAt(before.branches[sourceId]!, now)) },
    }[this.point];
    const name = `kept-${real.sim.log.length}`;
    const response = send(real, 'POST', `/projects/${project.id}/branches/${branchId}/restore`, {
      source_branch_id: sourceId,
      ...point,
      ...(this.preserve ? { preserve_under_name: name } : {}),
    });
    expect([200, 400, 423]).toContain(response.status);
    if (this.point === 'ancient') expect(response.status, 'outside the retention').toBe(400);
    if (response.status !== 200) return;
    const after = real.sim.state.projects[project.id]!.branches;
    for (const id of Object.keys(before.branches))
      expect(after[id], `restore never loses a branch (${id})`).toBeDefined();
    const added = Object.keys(after).filter((id) => before.branches[id] === undefined);
    expect(added.length, 'preserve_under_name adds exactly one branch').toBe(this.preserve ? 1 : 0);
    if (this.preserve) {
      const kept = after[added[0]!]!;
      expect(kept).toMatchObject({
        name,
        timelineStartLsn: branch.timelineStartLsn,
        timelineStartedAt: branch.timelineStartedAt,
      });
      expect(kept.parentId).toBe(branch.parentId);
      for (const child of Object.values(before.branches).filter((b) => b.parentId === branchId))
        expect(after[child.id]!.parentId, 'children move to the kept branch').toBe(kept.id);
      project.branches.push(kept.id);
      // The kept branch holds the previous state: the restored branch's roles and databases.
      const previous = project.config.get(branchId)!;
      project.config.set(kept.id, {
        roles: new Map(previous.roles),
        databases: new Map(previous.databases),
      });
      checkConfig(project, kept.id, real.sim.state);
    }
    const parent = this.preserve ? added[0] : sourceId;
    expect(after[branchId]!.parentId, 'the kept branch, else the source, is the parent').toBe(
      parent,
    );
    expect(after[branchId]!.lastResetAt).toBe(now);
  }
  toString = () =>
    `restore(${this.p}, ${this.b}, ${this.source}${this.source === 'other' ? ` ${this.o}` : ''}, ${this.point}${this.preserve ? ', preserve' : ''})`;
}

const commands = [
  fc.constant(new CreateProjectCmd()),
  fc.nat().map((p) => new WaitForOperationsCmd(p)),
  fc.nat().map((p) => new WaitForOperationsCmd(p)),
  fc.nat().map((p) => new WaitForOperationsCmd(p)),
  fc
    .tuple(fc.boolean(), fc.nat(), fc.integer({ min: 0, max: 2 }))
    .map(([w, p, c]) => new CreateBranchCmd(w, p, c)),
  fc
    .tuple(fc.boolean(), fc.nat(), fc.nat(), fc.constantFrom('read_write', 'read_only'), sizeArb)
    .map(([w, p, b, t, s]) => new CreateEndpointCmd(w, p, b, t, s)),
  fc
    .tuple(
      fc.boolean(),
      fc.nat(),
      fc.nat(),
      fc.nat(),
      fc.constantFrom('size', 'timeout', 'never', 'branch', 'disable', 'enable', 'settings'),
      sizeArb,
    )
    .map(([w, p, e, b, c, s]) => new UpdateEndpointCmd(w, p, e, b, c, s)),
  fc
    .tuple(
      fc.boolean(),
      fc.nat(),
      fc.nat(),
      fc.constantFrom('start', 'suspend', 'restart', 'delete'),
    )
    .map(([w, p, e, v]) => new ControlCmd(w, p, e, v)),
  fc
    .tuple(fc.boolean(), fc.nat(), fc.nat(), fc.boolean())
    .map(([w, p, b, hard]) => new DeleteBranchCmd(w, p, b, hard)),
  // Three times: a deleted branch is rare in a run, and each recovery is worth trying early.
  fc.tuple(fc.boolean(), fc.nat(), fc.nat()).map(([w, p, b]) => new RecoverBranchCmd(w, p, b)),
  fc.tuple(fc.boolean(), fc.nat(), fc.nat()).map(([w, p, b]) => new RecoverBranchCmd(w, p, b)),
  fc.tuple(fc.boolean(), fc.nat(), fc.nat()).map(([w, p, b]) => new RecoverBranchCmd(w, p, b)),
  fc.tuple(fc.nat(), fc.nat(), fc.boolean()).map(([p, e, pooled]) => new ConnectCmd(p, e, pooled)),
  fc.nat().map((p) => new ConnectBurstCmd(p)),
  fc.nat().map((c) => new CloseCmd(c)),
  fc
    .tuple(
      fc.nat(),
      fc.constantFrom('query', 'begin', 'commit'),
      fc.integer({ min: 0, max: 600_000 }),
    )
    .map(([c, what, ms]) => new WorkCmd(c, what as 'query' | 'begin' | 'commit', ms)),
  fc
    .oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 2_000 }) },
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 900_000 }) },
      // rare jumps of days, so availability checks and tenant detaches happen too
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 9 * 86_400_000 }) },
    )
    .map((ms) => new AdvanceCmd(ms)),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 4 })).map(([p, l]) => new PageOperationsCmd(p, l)),
  fc
    .tuple(
      fc.nat(),
      fc.nat(),
      fc.oneof(
        fc.constantFrom('main', 'dev', 'qa').map((name) => ({ name })),
        fc.boolean().map((value) => ({ protected: value })),
      ),
    )
    .map(([p, b, change]) => new PatchBranchCmd(p, b, change)),
  fc.tuple(fc.boolean(), fc.nat(), fc.nat()).map(([w, p, b]) => new SetDefaultBranchCmd(w, p, b)),
  fc.nat().map((p) => new DeleteDefaultBranchCmd(p)),
  fc
    .tuple(fc.boolean(), fc.nat(), fc.constantFrom(0, 3_600, 86_400, 604_800))
    .map(([w, p, r]) => new PatchProjectCmd(w, p, r)),
  fc
    .tuple(
      fc.boolean(),
      fc.nat(),
      fc.nat(),
      fc.constantFrom<Source>('parent', 'self', 'other'),
      fc.nat(),
      fc.constantFrom<Point>('head', 'recent', 'ancient', 'headLsn'),
      fc.boolean(),
    )
    .map(([w, p, b, s, o, pt, keep]) => new RestoreBranchCmd(w, p, b, s, o, pt, keep)),
  fc
    .tuple(fc.boolean(), fc.nat(), fc.nat())
    .map(([w, p, b]) => new RestoreBranchCmd(w, p, b, 'parent', 0, 'head', false)),
  fc
    .tuple(fc.boolean(), fc.nat(), fc.nat(), fc.constantFrom(...ROLE_NAMES))
    .map(([w, p, b, n]) => new CreateRoleCmd(w, p, b, n)),
  fc
    .tuple(fc.boolean(), fc.nat(), fc.nat(), fc.constantFrom(...OWNER_NAMES))
    .map(([w, p, b, n]) => new ResetPasswordCmd(w, p, b, n)),
  fc
    .tuple(fc.boolean(), fc.nat(), fc.nat(), fc.constantFrom(...OWNER_NAMES))
    .map(([w, p, b, n]) => new DeleteRoleCmd(w, p, b, n)),
  fc
    .tuple(
      fc.boolean(),
      fc.nat(),
      fc.nat(),
      fc.constantFrom(...DATABASE_NAMES),
      fc.constantFrom(...OWNER_NAMES),
    )
    .map(([w, p, b, n, o]) => new CreateDatabaseCmd(w, p, b, n, o)),
  fc
    .tuple(
      fc.boolean(),
      fc.nat(),
      fc.nat(),
      fc.constantFrom('appdb', 'shop', 'neondb'),
      fc.record(
        { name: fc.constantFrom(...DATABASE_NAMES), owner_name: fc.constantFrom(...OWNER_NAMES) },
        { requiredKeys: [] },
      ),
    )
    .map(([w, p, b, n, c]) => new UpdateDatabaseCmd(w, p, b, n, c)),
  fc
    .tuple(fc.boolean(), fc.nat(), fc.nat(), fc.constantFrom('appdb', 'shop', 'neondb'))
    .map(([w, p, b, n]) => new DeleteDatabaseCmd(w, p, b, n)),
];

const faultsArb = fc.option(
  fc.record({
    failureRate: fc.constantFrom(0.2, 0.5),
    maxRetries: fc.integer({ min: 0, max: 2 }),
    retryDelayMs: fc.constantFrom(0, 1_000),
  }),
  { nil: undefined },
);

/** Background settings: the defaults, or a fast variant where detach and checks happen within minutes. */
const backgroundArb = fc.constantFrom(
  {},
  {
    tenantDetachAfterMs: 600_000,
    availabilityChecks: { intervalMs: 1_800_000, backoff: 2, maxIntervalMs: 21_600_000 },
  },
);

/** Failing actions: the compute's own, or every action (background work included). */
const faultedArb = fc.constantFrom(
  ['start_compute', 'apply_config', 'suspend_compute'] as readonly OperationAction[],
  OPERATION_ACTIONS,
);

/** Checks that only hold once every operation has ended. */
function checkSettled(state: SimState): void {
  for (const project of Object.values(state.projects)) {
    for (const endpoint of Object.values(project.endpoints)) {
      expect(endpoint.pendingState, `${endpoint.id}: pending state with nothing under way`).toBe(
        undefined,
      );
      if (project.detached)
        expect(endpoint.currentState, 'no compute runs on a detached project').not.toBe('active');
    }
  }
  const stuck = Object.values(state.connections).filter((c) => c.status === 'connecting');
  expect(stuck, 'connections still connecting once everything settled').toEqual([]);
}

describe('control plane, model-based', () => {
  it('keeps its invariants under any sequence of requests, connections and clock moves', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        faultsArb,
        faultedArb,
        backgroundArb,
        fc.commands(commands, { maxCommands: 60, size: 'medium' }),
        (seed, fault, faulted, background, cmds) => {
          const faults =
            fault === undefined ? {} : Object.fromEntries(faulted.map((action) => [action, fault]));
          const sim = new Simulation({
            seed,
            profile: { faults, ...background },
            snapshotEvery: 7,
          });
          const real: Real = { sim };
          fc.modelRun(() => ({ model: { projects: [], connections: [] }, real }), cmds);
          // Every operation ends in a terminal status once the run settles.
          sim.runUntilIdle({ stepLimit: 1_000_000 });
          const statuses: OperationStatus[] = Object.values(sim.state.projects).flatMap((p) =>
            Object.values(p.operations).map((o) => o.status),
          );
          expect(statuses.filter((s) => !isTerminal(s))).toEqual([]);
          // ...no compute is left half-way, and no connection waits for a start nothing will do.
          checkSettled(sim.state);
          // The published state is what the log says, by replay and by an independent immer fold.
          expect(Simulation.replay(sim.log).state).toEqual(sim.state);
          expect(sim.state).toEqual(immerFold(sim.log));
        },
      ),
      { numRuns: 150 },
    );
  });
});
