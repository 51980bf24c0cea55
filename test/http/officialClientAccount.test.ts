/**
 * The official TypeScript client (@neondatabase/api-client) against `computesim serve` for the
 * account routes: the current user and its organizations, API keys (a created key works at once, a
 * revoked one is refused), and project consumption history. Every response validates against the
 * public v2 schema.
 */
import { ConsumptionHistoryGranularity, createApiClient, type Api } from '@neondatabase/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { SimServer } from '../../src/http/simServer.js';
import { checkedBySchema } from '../support/officialWorlds.js';

const KEY = 'official-account-key';
let server: SimServer;
let base: string;
const problems: string[] = [];

beforeAll(async () => {
  server = new SimServer(new Simulation({ seed: 12 }), {
    keys: [{ key: KEY, kind: 'personal' }],
    clock: { name: 'manual', rate: 0 },
  });
  base = await server.listen(0);
});
afterAll(() => server.close());

/** A client with `apiKey` whose every response is checked against the schema. */
function client(apiKey: string): Api<unknown> {
  const api = createApiClient({ apiKey, baseURL: base });
  checkedBySchema(api, base, problems);
  return api;
}

/** The HTTP status a call failed with (axios rejects non-2xx answers). */
async function failedStatus(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return (error as { response?: { status?: number } }).response?.status;
  }
}

describe('the official client on the account routes', () => {
  it('reads the user, creates a key that works at once, revokes it, and reads consumption', async () => {
    const api = client(KEY);
    const me = await api.getCurrentUserInfo();
    expect(me.data.email).toContain('@');
    const orgs = await api.getCurrentUserOrganizations();
    expect(orgs.data.organizations).toHaveLength(1);

    const created = await api.createApiKey({ key_name: 'sdk' });
    const withNewKey = client(created.data.key);
    const project = await withNewKey.createProject({ project: { name: 'sdk-usage' } });
    expect(project.status).toBe(201);
    const listed = await api.listApiKeys();
    expect(listed.data.map((k) => k.name)).toEqual(['sdk']);

    await fetch(`${base}/_sim/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ by: '90m' }),
    });
    const history = await withNewKey.getConsumptionHistoryPerProject({
      from: '2026-01-05T00:00:00Z',
      to: '2026-01-05T02:00:00Z',
      granularity: ConsumptionHistoryGranularity.Hourly,
      project_ids: [project.data.project.id],
    });
    const frames = history.data.projects[0]?.periods[0]?.consumption ?? [];
    expect(frames.map((f) => f.timeframe_start)).toEqual([
      '2026-01-05T00:00:00Z',
      '2026-01-05T01:00:00Z',
    ]);
    const total = frames.reduce((s, f) => s + (f.active_time_seconds ?? 0), 0);
    const record = await api.getProject(project.data.project.id);
    expect(total).toBe(record.data.project.active_time_seconds);
    expect(total).toBeGreaterThan(0);

    const revoked = await api.revokeApiKey(created.data.id);
    expect(revoked.data.revoked).toBe(true);
    expect(await failedStatus(withNewKey.listProjects({}))).toBe(401);
    expect(problems).toEqual([]);
  });
});
