/**
 * A 423 is decided with its record: `decide` refuses a locked command and, when an API request
 * issued it, returns the `RequestLocked` record as the refusal's events; no API layer re-derives it.
 */
import { describe, expect, it } from 'vitest';
import { createControlPlane } from '../../src/model/controlPlane.js';
import { resolveProfile } from '../../src/domain/profile.js';
import { givenProject } from '../support/given.js';

describe('a refusal with 423', () => {
  const { sim, projectId, endpointId, path } = givenProject();
  sim.request('POST', path(`/endpoints/${endpointId}/restart`)); // locks the compute
  const profile = resolveProfile({});
  if (!profile.ok) throw new Error(profile.error);
  const plane = createControlPlane(profile.value);
  const context = {
    now: sim.now(),
    nextSeq: sim.log.length,
    random: () => {
      throw new Error('a refusal draws nothing');
    },
    stream: () => {
      throw new Error('a refusal draws nothing');
    },
  };
  const start = { type: 'StartEndpoint', projectId, endpointId } as const;

  it('carries the record of the request that issued the command', () => {
    const route = '/projects/{project_id}/endpoints/{endpoint_id}/start';
    const decided = plane.decide(
      sim.state,
      { ...start, request: { method: 'POST', route } },
      context,
    );
    expect(decided).toEqual({
      ok: false,
      error: expect.objectContaining({ kind: 'locked' }),
      records: [{ type: 'RequestLocked', projectId, method: 'POST', route, endpointId }],
    });
  });

  it('records nothing when no request issued it', () => {
    const decided = plane.decide(sim.state, start, context);
    expect(decided).toEqual({ ok: false, error: expect.objectContaining({ kind: 'locked' }) });
  });
});
