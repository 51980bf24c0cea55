import { describe, expect, it } from 'vitest';
import {
  checkClient,
  assertClient,
  defaultOracles,
  formatFinding,
  handlesFailedOperations,
  pollsNoFasterThan,
  retriesWithBackoff,
  runClient,
  usesLiveIds,
  usesReadWriteForWrites,
  waitsForOpenConnections,
  waitsForOperations,
  type ClientRecord,
  type RecordedConnection,
  type RecordedRequest,
} from '../../src/testing/index.js';

const T0 = Date.UTC(2026, 0, 5);
const P = 'p-1';

/** A record built request by request: `at` in seconds from T0. */
function record(
  requests: Omit<RecordedRequest, 'index' | 'query' | 'projectId'>[],
  connections: Omit<RecordedConnection, 'index'>[] = [],
): ClientRecord {
  return {
    requests: requests.map((r, index) => ({
      index,
      query: '',
      projectId: P,
      ...r,
      at: T0 + r.at * 1000,
    })),
    connections: connections.map((c, index) => ({ index, ...c, at: T0 + c.at * 1000 })),
  };
}

const op = (id: string, status: string, action = 'start_compute') => ({ id, status, action });
const mutation = (at: number, path: string, ops: object[] = [], status = 200) => ({
  at,
  method: 'POST',
  path: `/projects/${P}${path}`,
  status,
  response:
    status < 300 ? { operations: ops } : { code: status === 423 ? 'locked' : 'rate_limited' },
});
const poll = (at: number, id: string, status: string) => ({
  at,
  method: 'GET',
  path: `/projects/${P}/operations/${id}`,
  status: 200,
  response: { operation: op(id, status) },
});

describe('waitsForOperations', () => {
  it('fires on a mutating request sent while an operation it was given is unfinished', () => {
    const r = record([
      mutation(0, '/endpoints/e/restart', [op('o1', 'running')]),
      poll(5, 'o1', 'running'),
      mutation(6, '/endpoints/e/suspend'),
    ]);
    const [finding] = checkClient(r, [waitsForOperations()]);
    expect(finding).toMatchObject({ oracle: 'waitsForOperations', requestIndex: 2, at: T0 + 6000 });
    expect(finding?.message).toMatch(
      /operation o1 \(start_compute\) returned by request #0 was last seen running/,
    );
  });

  it('fires when the operation was never polled', () => {
    const r = record([mutation(0, '/a', [op('o1', 'running')]), mutation(1, '/b')]);
    expect(checkClient(r, [waitsForOperations()])[0]?.message).toMatch(/never polled/);
  });

  it('is silent when every operation was seen finished (or in a list) first', () => {
    const r = record([
      mutation(0, '/a', [op('o1', 'running'), op('o2', 'scheduling')]),
      poll(5, 'o1', 'finished'),
      {
        at: 10,
        method: 'GET',
        path: `/projects/${P}/operations`,
        status: 200,
        response: { operations: [op('o2', 'finished')] },
      },
      mutation(11, '/b'),
    ]);
    expect(checkClient(r, [waitsForOperations()])).toEqual([]);
  });

  it('does not mix projects', () => {
    const r = record([mutation(0, '/a', [op('o1', 'running')]), mutation(1, '/b')]);
    const other: ClientRecord = {
      ...r,
      requests: r.requests.map((q) => (q.index === 1 ? { ...q, projectId: 'p-2' } : q)),
    };
    expect(checkClient(r, [waitsForOperations()])).toHaveLength(1);
    expect(checkClient(other, [waitsForOperations()])).toEqual([]);
  });
});

describe('pollsNoFasterThan', () => {
  it('fires on a repeated GET sooner than the interval', () => {
    const r = record([poll(0, 'o1', 'running'), poll(3, 'o1', 'running')]);
    const [finding] = checkClient(r, [pollsNoFasterThan('5s')]);
    expect(finding).toMatchObject({ oracle: 'pollsNoFasterThan', requestIndex: 1 });
    expect(finding?.message).toMatch(/polled again after 3s, faster than every 5s/);
  });

  it('is silent for polls at the interval, different paths, or after a mutation', () => {
    const r = record([
      poll(0, 'o1', 'running'),
      poll(0, 'o2', 'running'),
      poll(5, 'o1', 'running'),
      mutation(6, '/x'),
      poll(6, 'o1', 'finished'),
    ]);
    expect(checkClient(r, [pollsNoFasterThan('5s')])).toEqual([]);
  });
});

describe('retriesWithBackoff', () => {
  it('fires when a 423 is never retried', () => {
    const r = record([mutation(0, '/a', [], 423), mutation(2, '/b')]);
    expect(checkClient(r, [retriesWithBackoff()])[0]?.message).toMatch(
      /got 423 and was never retried/,
    );
  });

  it('fires on a retry sooner than Retry-After, and on a shrinking backoff', () => {
    const early = record([
      { ...mutation(0, '/a', [], 429), retryAfterSeconds: 5 },
      mutation(2, '/a'),
    ]);
    expect(checkClient(early, [retriesWithBackoff()])[0]?.message).toMatch(
      /retried 2s after a 429; it should wait at least 5s/,
    );
    const shrinking = record([
      mutation(0, '/a', [], 423),
      mutation(4, '/a', [], 423),
      mutation(6, '/a'),
    ]);
    expect(checkClient(shrinking, [retriesWithBackoff()])[0]).toMatchObject({ requestIndex: 2 });
    expect(checkClient(shrinking, [retriesWithBackoff({ growth: 1 })])).toHaveLength(1);
  });

  it('is silent for growing retries, and for giving up after enough of them', () => {
    const r = record([
      mutation(0, '/a', [], 423),
      mutation(1, '/a', [], 423),
      mutation(3, '/a', [], 423),
      mutation(7, '/a', [], 423),
      mutation(20, '/b'),
    ]);
    expect(checkClient(r, [retriesWithBackoff({ giveUpAfter: 3 })])).toEqual([]);
    expect(checkClient(r, [retriesWithBackoff({ giveUpAfter: 4 })])).toHaveLength(1);
    expect(() => retriesWithBackoff({ growth: 0.5 })).toThrow(RangeError);
  });
});

describe('handlesFailedOperations', () => {
  it('fires when the client goes on after seeing its operation fail', () => {
    const r = record([
      mutation(0, '/endpoints/e/restart', [op('o1', 'running')]),
      poll(5, 'o1', 'failed'),
      mutation(6, '/endpoints/e/suspend'),
    ]);
    expect(checkClient(r, [handlesFailedOperations()])[0]?.message).toMatch(
      /went on after operation o1 of request #0 was seen failed/,
    );
  });

  it('is silent when the client stops, or repeats the request that failed', () => {
    const stops = record([mutation(0, '/r', [op('o1', 'running')]), poll(5, 'o1', 'error')]);
    const repeats = record([
      mutation(0, '/r', [op('o1', 'running')]),
      poll(5, 'o1', 'failed'),
      mutation(10, '/r', [op('o2', 'running')]),
      poll(15, 'o2', 'finished'),
      mutation(16, '/next'),
    ]);
    expect(checkClient(stops, [handlesFailedOperations()])).toEqual([]);
    expect(checkClient(repeats, [handlesFailedOperations()])).toEqual([]);
  });

  it('fires on the same path with another body: another change, not the request again', () => {
    const patch = (at: number, minCu: number, ops: object[] = []) => ({
      ...mutation(at, '/endpoints/e', ops),
      method: 'PATCH',
      body: { endpoint: { autoscaling_limit_min_cu: minCu } },
    });
    const again = record([
      patch(0, 1, [op('o1', 'running')]),
      poll(5, 'o1', 'failed'),
      patch(6, 1),
    ]);
    const other = record([
      patch(0, 1, [op('o1', 'running')]),
      poll(5, 'o1', 'failed'),
      patch(6, 2),
    ]);
    expect(checkClient(again, [handlesFailedOperations()])).toEqual([]);
    expect(checkClient(other, [handlesFailedOperations()])[0]).toMatchObject({
      oracle: 'handlesFailedOperations',
      requestIndex: 2,
    });
  });
});

describe('usesReadWriteForWrites', () => {
  it('fires on a write connection to a read_only compute, silent for reads and primaries', () => {
    const bad = record(
      [],
      [{ at: 1, endpointId: 'ep-r', purpose: 'write', endpointType: 'read_only' }],
    );
    expect(checkClient(bad, [usesReadWriteForWrites()])[0]).toMatchObject({
      oracle: 'usesReadWriteForWrites',
      connectionIndex: 0,
      message: expect.stringMatching(/ep-r, which is read_only/),
    });
    const good = record(
      [],
      [
        { at: 1, endpointId: 'ep-r', purpose: 'read', endpointType: 'read_only' },
        { at: 2, endpointId: 'ep-w', purpose: 'write', endpointType: 'read_write' },
      ],
    );
    expect(checkClient(good, [usesReadWriteForWrites()])).toEqual([]);
  });

  it('says nothing of a write connection to a compute gone by then (deleted alongside the client)', () => {
    const gone = record([], [{ at: 1, endpointId: 'ep-deleted', purpose: 'write' }]);
    expect(checkClient(gone, [usesReadWriteForWrites()])).toEqual([]);
  });
});

describe('reports', () => {
  it('assertClient throws the findings with the requests that led to them', () => {
    const r = record([mutation(0, '/a', [op('o1', 'running')]), mutation(1, '/b')]);
    expect(() => assertClient(r, [waitsForOperations()])).toThrow(
      /waitsForOperations: .*\n {2}at 2026-01-05T00:00:01Z \(\+1s into the run\)\n {2}requests up to it:\n {4}#0 \+0ms POST \/projects\/p-1\/a → 200\n {2}> #1 \+1s POST/,
    );
    const [finding] = checkClient(r, [waitsForOperations()]);
    expect(formatFinding(finding!, r)).toContain('> #1');
  });
});

describe('the verdicts on create-then-mutate, 422, 5xx and failed operations', () => {
  /** `POST /projects`: no project in its path, its operations name the project they belong to. */
  const createProject = (at: number) => ({
    at,
    method: 'POST',
    path: '/projects',
    noProject: true,
    status: 201,
    response: {
      project: { id: P },
      operations: [{ ...op('c1', 'running', 'create_timeline'), project_id: P }],
    },
  });
  const notReady = (at: number, path: string) => ({
    ...mutation(at, path, [], 422),
    response: { code: '', message: 'branch not ready yet' },
  });
  const unavailable = (at: number, path: string, retryAfterSeconds?: number) => ({
    ...mutation(at, path, [], 503),
    response: { code: '', message: 'service unavailable' },
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });
  /** A record whose requests may name no project (`projectId: undefined` kept as given). */
  const recordOf = (requests: Parameters<typeof record>[0]): ClientRecord => {
    const built = record(requests);
    return {
      ...built,
      requests: built.requests.map((r, i) => {
        if (!('noProject' in (requests[i] as object))) return r;
        const { projectId: _dropped, ...rest } = r;
        return rest;
      }),
    };
  };

  it('finds a branch made at once after POST /projects, politely retried or not', () => {
    const hasty = recordOf([createProject(0), mutation(0, '/branches')]);
    expect(checkClient(hasty, [waitsForOperations()])[0]?.message).toMatch(
      /POST \/projects\/p-1\/branches was sent while operation c1 \(create_timeline\) returned by request #0 was never polled/,
    );
    const polite = recordOf([
      createProject(0),
      mutation(0, '/branches', [], 423),
      mutation(2, '/branches', [], 423),
      mutation(6, '/branches'),
    ]);
    expect(checkClient(polite, [waitsForOperations()])).toHaveLength(1);
    expect(checkClient(polite, [retriesWithBackoff()])).toEqual([]);
    const careful = recordOf([
      createProject(0),
      poll(5, 'c1', 'finished'),
      mutation(5, '/branches'),
    ]);
    expect(checkClient(careful, defaultOracles())).toEqual([]);
  });

  it('judges a 422 "not ready" as a refusal to retry with backoff', () => {
    const atOnce = record([
      notReady(0, '/endpoints'),
      notReady(0, '/endpoints'),
      mutation(0, '/endpoints'),
    ]);
    expect(checkClient(atOnce, [retriesWithBackoff()])[0]?.message).toMatch(
      /retried 0ms after a 422; it should wait at least 1s/,
    );
    const givesUp = record([notReady(0, '/endpoints')]);
    expect(checkClient(givesUp, [retriesWithBackoff()])[0]?.message).toMatch(/never retried/);
    const backsOff = record([
      notReady(0, '/endpoints'),
      notReady(2, '/endpoints'),
      mutation(6, '/endpoints'),
    ]);
    expect(checkClient(backsOff, [retriesWithBackoff()])).toEqual([]);
    // Another 422 (a body the service cannot process) is final: stopping there is fine.
    const final = record([{ ...mutation(0, '/x', [], 422), response: { message: 'bad' } }]);
    expect(checkClient(final, [retriesWithBackoff()])).toEqual([]);
  });

  it('finds a client that gives up on the first 5xx, or retries it before Retry-After', () => {
    expect(checkClient(record([unavailable(0, '/r')]), [retriesWithBackoff()])[0]?.message).toMatch(
      /got 503 and was never retried/,
    );
    const early = record([unavailable(0, '/r', 3), mutation(1, '/r')]);
    expect(checkClient(early, [retriesWithBackoff()])[0]?.message).toMatch(/at least 3s/);
    const patient = record([unavailable(0, '/r', 3), mutation(3, '/r')]);
    expect(checkClient(patient, [retriesWithBackoff()])).toEqual([]);
  });

  it('holds retries of a 5xx without Retry-After to a backoff that does not shrink', () => {
    const shrinking = record([unavailable(0, '/r'), unavailable(4, '/r'), mutation(6, '/r')]);
    expect(checkClient(shrinking, [retriesWithBackoff()])[0]).toMatchObject({ requestIndex: 2 });
    const growing = record([unavailable(0, '/r'), unavailable(2, '/r'), mutation(6, '/r')]);
    expect(checkClient(growing, [retriesWithBackoff()])).toEqual([]);
  });

  it('takes a GET retried after a 429 for a retry, not a poll: the oracles agree', () => {
    const limited = {
      ...poll(0, 'o1', 'running'),
      status: 429,
      response: { code: 'rate_limited' },
    };
    const r = record([
      { ...limited, retryAfterSeconds: 0 },
      { ...poll(1, 'o1', 'running') },
      { ...poll(6, 'o1', 'finished') },
    ]);
    expect(checkClient(r, [pollsNoFasterThan(), retriesWithBackoff()])).toEqual([]);
    const hasty = record([poll(0, 'o1', 'running'), poll(1, 'o1', 'running')]);
    expect(checkClient(hasty, [pollsNoFasterThan()])).toHaveLength(1);
  });

  it('accepts waiting out a failed operation, and cleaning up after it', () => {
    const waits = record([
      mutation(0, '/endpoints/e/restart', [op('o1', 'running')]),
      poll(5, 'o1', 'failed'),
      poll(10, 'o1', 'running'),
      poll(15, 'o1', 'finished'),
      mutation(16, '/endpoints/e/suspend'),
    ]);
    expect(checkClient(waits, defaultOracles())).toEqual([]);
    const cleansUp = record([
      mutation(0, '/branches', [op('o1', 'running', 'create_branch')]),
      poll(5, 'o1', 'error'),
      { ...mutation(6, '/branches/b'), method: 'DELETE' },
    ]);
    expect(checkClient(cleansUp, [handlesFailedOperations()])).toEqual([]);
    const goesOn = record([
      mutation(0, '/branches', [op('o1', 'running', 'create_branch')]),
      poll(5, 'o1', 'failed'),
      mutation(6, '/endpoints'),
    ]);
    expect(checkClient(goesOn, [handlesFailedOperations()])[0]?.message).toMatch(
      /went on after operation o1 .* was seen failed, as if it had finished/,
    );
  });
});

describe('waitsForOpenConnections', () => {
  it('finds a statement sent on a connection still connecting, and passes one that waited', async () => {
    const job = (waits: boolean) =>
      runClient(async (ctx) => {
        const created = await ctx.fetch(`${ctx.baseURL}/projects`, {
          method: 'POST',
          body: '{"project":{}}',
        });
        const { endpoints } = (await created.json()) as { endpoints: { id: string }[] };
        await ctx.sleep(6 * 60_000); // the compute scales to zero
        const connection = ctx.connect(endpoints[0]!.id, { purpose: 'write' });
        if (waits) while (connection.state === 'connecting') await ctx.sleep(1_000);
        return connection.query('1s');
      });
    const hasty = await job(false);
    expect(hasty.value).toMatchObject({ ok: false, error: { sqlstate: '08003' } });
    expect(checkClient(hasty.record, [waitsForOpenConnections()])[0]?.message).toMatch(
      /a query on connection #0 to ep-.* was sent while it was still connecting/,
    );
    const patient = await job(true);
    expect(patient.value).toEqual({ ok: true });
    expect(checkClient(patient.record, [waitsForOpenConnections()])).toEqual([]);
  });
});

describe('waitsForOpenConnections on records', () => {
  it('passes a statement refused on a dropped connection: that is how a client learns of the drop', () => {
    const base = record([], [{ at: 0, endpointId: 'ep-1', purpose: 'write' }]);
    const statement = (connectionState: string) => ({
      ...base,
      statements: [
        {
          index: 0,
          at: T0 + 1000,
          connectionIndex: 0,
          kind: 'query' as const,
          connectionState,
          refused: { sqlstate: '08003', message: 'connection does not exist' },
        },
      ],
    });
    expect(checkClient(statement('dropped'), [waitsForOpenConnections()])).toEqual([]);
    expect(checkClient(statement('connecting'), [waitsForOpenConnections()])).toHaveLength(1);
  });
});

describe('usesLiveIds', () => {
  const shown = (at: number, path: string, endpoints: object[]) => ({
    at,
    method: 'GET',
    path: `/projects/${P}${path}`,
    status: 200,
    response: { endpoints },
  });
  const remove = (at: number, path: string, status = 200) => ({
    at,
    method: 'DELETE',
    path: `/projects/${P}${path}`,
    status,
    response: {},
  });
  const compute = { id: 'ep-1', branch_id: 'br-1', project_id: P };

  it('finds a compute used after the client deleted its branch, or a connection to it', () => {
    const restarts = record([
      shown(0, '/endpoints', [compute]),
      remove(1, '/branches/br-1'),
      mutation(2, '/endpoints/ep-1/restart'),
    ]);
    expect(checkClient(restarts, [usesLiveIds()])[0]?.message).toMatch(
      /names ep-1, which the client had deleted \(request #1\)/,
    );
    const connects = record(
      [shown(0, '/endpoints', [compute]), remove(1, '/endpoints/ep-1')],
      [{ at: 2, endpointId: 'ep-1', purpose: 'read' }],
    );
    expect(checkClient(connects, [usesLiveIds()])[0]?.message).toMatch(
      /connection #0 went to compute ep-1, which the client had deleted/,
    );
  });

  it("finds a compute of a project the client deleted, and passes another project's", () => {
    const elsewhere = { id: 'ep-9', branch_id: 'br-9', project_id: 'p-2' };
    const r = record([
      shown(0, '/endpoints', [compute, elsewhere]),
      { ...remove(1, ''), path: `/projects/${P}` },
      { ...mutation(2, ''), path: '/projects/p-2/endpoints/ep-9/restart' },
      mutation(3, '/endpoints/ep-1/restart'),
    ]);
    const [finding] = checkClient(r, [usesLiveIds()]);
    expect(finding).toMatchObject({ requestIndex: 3 });
    expect(finding?.message).toMatch(/names ep-1, which the client had deleted \(request #1\)/);
  });

  it('passes what the client did not delete, a refused DELETE, and another branch', () => {
    const other = { id: 'ep-2', branch_id: 'br-2', project_id: P };
    const fine = record([
      shown(0, '/endpoints', [compute, other]),
      remove(1, '/branches/br-1', 423),
      mutation(2, '/endpoints/ep-1/restart'),
      remove(3, '/branches/br-1'),
      mutation(4, '/endpoints/ep-2/restart'),
    ]);
    expect(checkClient(fine, [usesLiveIds()])).toEqual([]);
  });
});
