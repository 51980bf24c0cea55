/**
 * How a client names its compute without SNI, and what a backend's reply says of its transaction:
 * the two pure readings the Postgres front makes of what crosses the wire.
 */
import { describe, expect, it } from 'vitest';
import {
  endpointFromHost,
  endpointFromOptions,
  splitPassword,
} from '../../src/pg/endpointRouting.js';
import { lastTransactionStatus } from '../../src/pg/replyFrames.js';
import { PG_ERRORS } from '../../src/pg/pgErrors.js';

describe('naming the compute', () => {
  it.each([
    ['endpoint=ep-a-1', { endpointId: 'ep-a-1', pooled: false }],
    ['project=ep-a-1', { endpointId: 'ep-a-1', pooled: false }],
    ['-c search_path=app endpoint=ep-a-1-pooler', { endpointId: 'ep-a-1', pooled: true }],
    ['--endpoint=ep-b-2', { endpointId: 'ep-b-2', pooled: false }],
    ['-c statement_timeout=5s', undefined],
    ['endpoint=', undefined],
    [undefined, undefined],
  ])('reads options %j as %j', (options, named) => {
    expect(endpointFromOptions(options)).toEqual(named);
  });

  it.each([
    ['endpoint=ep-a-1;secret', { endpointId: 'ep-a-1', pooled: false }, 'secret'],
    ['endpoint=ep-a-1$se;cret', { endpointId: 'ep-a-1', pooled: false }, 'se;cret'],
    ['endpoint=ep-a-1-pooler;', { endpointId: 'ep-a-1', pooled: true }, ''],
    ['plain-password', undefined, 'plain-password'],
    ['endpoint=;secret', undefined, 'endpoint=;secret'],
  ])('splits password %j', (sent, endpoint, password) => {
    const split = splitPassword(sent);
    expect(split.endpoint).toEqual(endpoint);
    expect(split.password).toBe(password);
  });
});

describe('reading the transaction status of a reply', () => {
  const message = (type: string, payload: number[]) => {
    const length = 4 + payload.length;
    return [
      type.charCodeAt(0),
      length >>> 24,
      (length >>> 16) & 255,
      (length >>> 8) & 255,
      length & 255,
      ...payload,
    ];
  };
  const ready = (status: string) => message('Z', [status.charCodeAt(0)]);

  it('takes the last ReadyForQuery of a batch, past other messages', () => {
    const commandComplete = message('C', [...Buffer.from('SELECT 1\0')]);
    expect(lastTransactionStatus(Uint8Array.from([...commandComplete, ...ready('T')]))).toBe('T');
    expect(
      lastTransactionStatus(Uint8Array.from([...ready('T'), ...commandComplete, ...ready('I')])),
    ).toBe('I');
    expect(lastTransactionStatus(Uint8Array.from(ready('E')))).toBe('E');
  });

  it('finds none in a reply without one, or cut short', () => {
    expect(lastTransactionStatus(Uint8Array.from(message('1', [])))).toBeUndefined();
    expect(lastTransactionStatus(Uint8Array.from(ready('I').slice(0, 5)))).toBeUndefined();
    expect(lastTransactionStatus(new Uint8Array())).toBeUndefined();
  });
});

describe('errors of the front', () => {
  it('words any cause, never as [object Object]', () => {
    expect(PG_ERRORS.unavailable(new Error('disk full')).message).toMatch(/: disk full$/);
    expect(PG_ERRORS.unavailable({ message: 'from a worker' }).message).toMatch(/: from a worker$/);
    expect(PG_ERRORS.unavailable({ code: 'E42' }).message).toMatch(/: \{"code":"E42"\}$/);
    expect(PG_ERRORS.unavailable('plain').message).toMatch(/: plain$/);
  });
});

describe('endpointFromHost', () => {
  it("takes the compute from a host's first label, as the proxy reads SNI", () => {
    expect(endpointFromHost('ep-cool-darkness-123456.us-east-2.aws.neon.tech')).toEqual({
      endpointId: 'ep-cool-darkness-123456',
      pooled: false,
    });
    expect(endpointFromHost('ep-cool-darkness-123456-pooler.us-east-2.aws.neon.tech')).toEqual({
      endpointId: 'ep-cool-darkness-123456',
      pooled: true,
    });
    for (const host of ['127.0.0.1', 'localhost', '::1', ''])
      expect(endpointFromHost(host)).toBeUndefined();
  });
});
