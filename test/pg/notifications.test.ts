/**
 * Who listens on what, read from the statements clients send: LISTEN and UNLISTEN with quoted and
 * unquoted names, in simple queries and Parses, not in strings or comments; and the bookkeeping of
 * a backend shared by several listeners.
 */
import { describe, expect, it } from 'vitest';
import { backendMessage } from '../../src/pg/backendMessages.js';
import { Listeners, listenChanges, takeNotifications } from '../../src/pg/notifications.js';

const query = (sql: string) => backendMessage('Q', Buffer.from(`${sql}\0`));
const parse = (name: string, sql: string) =>
  backendMessage('P', Buffer.concat([Buffer.from(`${name}\0${sql}\0`), Buffer.from([0, 0])]));

describe('listenChanges', () => {
  it('reads LISTEN and UNLISTEN as Postgres names channels', () => {
    expect(listenChanges(query('LISTEN Orders; unlisten "Mixed""Case"; UNLISTEN *'))).toEqual([
      { listen: true, channel: 'orders' },
      { listen: false, channel: 'Mixed"Case' },
      { listen: false, channel: '*' },
    ]);
    expect(listenChanges(parse('s1', 'listen jobs'))).toEqual([{ listen: true, channel: 'jobs' }]);
  });

  it('passes over strings and comments', () => {
    expect(listenChanges(query("select 'listen x' -- listen y\n /* unlisten z */"))).toEqual([]);
  });
});

describe('Listeners', () => {
  it('keeps a channel listened on while another session still listens', () => {
    const listeners = new Listeners();
    listeners.apply(1, [{ listen: true, channel: 'orders' }]);
    listeners.apply(2, [{ listen: true, channel: 'orders' }]);
    expect(listeners.apply(1, [{ listen: false, channel: '*' }])).toEqual(['orders']);
    expect([...listeners.of('orders')]).toEqual([2]);
    listeners.forget(2);
    expect(listeners.channels()).toEqual([]);
  });
});

describe('takeNotifications', () => {
  it('takes NotificationResponses out of a reply and leaves the rest in order', () => {
    const notification = (channel: string, payload: string) =>
      backendMessage(
        'A',
        Buffer.concat([Buffer.from([0, 0, 0, 42]), Buffer.from(`${channel}\0${payload}\0`)]),
      );
    const complete = backendMessage('C', Buffer.from('NOTIFY\0'));
    const ready = backendMessage('Z', Buffer.from('I'));
    const { rest, notifications } = takeNotifications(
      Buffer.concat([complete, notification('a', '1'), ready, notification('b', '2')]),
    );
    expect(Buffer.from(rest)).toEqual(Buffer.concat([complete, ready]));
    expect(notifications.map((n) => n.channel)).toEqual(['a', 'b']);
  });
});
