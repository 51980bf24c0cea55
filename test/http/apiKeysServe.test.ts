/**
 * API keys over `computesim serve` with a state file: a key created through the API works at once, a
 * revoked one gets 401, and after a restart from the state file (even a SIGKILL) both still hold.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callJson } from '../support/callJson.js';
import { killAllServeProcesses, startServe, type ServeProcess } from '../support/serveProcess.js';

afterEach(killAllServeProcesses);

/** `GET path` with `key`; resolves to the status. */
async function statusWith(server: ServeProcess, key: string, path = '/projects'): Promise<number> {
  return (await callJson(fetch, server.base, key, 'GET', path)).status;
}

describe('API keys created over serve', () => {
  it('work at once, stop at revocation, and stay so after a restart from the state file', async () => {
    // Given a server on a fresh state file
    const file = join(mkdtempSync(join(tmpdir(), 'computesim-keys-')), 'events.jsonl');
    const first = await startServe(['--state-file', file]);

    // When two keys are created and the second is revoked
    const kept = await first.call('POST', '/api_keys', { key_name: 'kept' });
    const gone = await first.call('POST', '/api_keys', { key_name: 'gone' });
    expect([kept.status, gone.status]).toEqual([200, 200]);
    const keptKey = kept.body?.['key'] as string;
    const goneKey = gone.body?.['key'] as string;
    // Then each works at once
    expect(await statusWith(first, keptKey)).toBe(200);
    expect(await statusWith(first, goneKey, '/users/me')).toBe(200);
    // And the revoked one gets 401 right after its revocation
    expect((await first.call('DELETE', `/api_keys/${gone.body?.['id']}`)).status).toBe(200);
    expect(await statusWith(first, goneKey)).toBe(401);
    expect(await statusWith(first, keptKey)).toBe(200);

    // When the server is killed and started again on the same file
    await first.kill();
    const second = await startServe(['--state-file', file]);
    // Then the created key still works, the revoked one still gets 401
    expect(await statusWith(second, keptKey)).toBe(200);
    expect(await statusWith(second, goneKey)).toBe(401);
    const listed = await callJson(fetch, second.base, keptKey, 'GET', '/api_keys');
    expect((listed.body as { name: string }[]).map((k) => k.name)).toEqual(['kept']);
    // And a key created after the restart is new (the secret stream went on, not back)
    const later = await second.call('POST', '/api_keys', { key_name: 'later' });
    expect(later.body?.['key']).not.toBe(keptKey);
    expect(later.body?.['key']).not.toBe(goneKey);
    expect(later.body?.['id']).toBe(3);
    expect(await statusWith(second, later.body?.['key'] as string)).toBe(200);
    await second.stop();
  }, 60_000);
});
