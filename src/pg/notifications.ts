/**
 * LISTEN and NOTIFY on a backend its database's clients share. The backend listens on every channel
 * any of them listens on; the front keeps who listens on what (from the `LISTEN` and `UNLISTEN`
 * statements each client sends) and hands each `NotificationResponse` the backend writes to the
 * clients listening on its channel, whichever client's statement it came with.
 */
import { NOTIFICATION, PARSE, QUERY } from './messageTypes.js';

/** A change of what a client listens on, as one of its statements asks. */
export type ListenChange =
  | { readonly listen: true; readonly channel: string }
  /** `channel` is `*` for `UNLISTEN *`: every channel. */
  | { readonly listen: false; readonly channel: string };

/** The LISTEN and UNLISTEN statements in a batch of client messages (simple queries and Parses). */
export function listenChanges(batch: Uint8Array): ListenChange[] {
  const changes: ListenChange[] = [];
  const view = Buffer.from(batch.buffer, batch.byteOffset, batch.byteLength);
  for (let offset = 0; offset + 5 <= view.length; offset += 1 + view.readUInt32BE(offset + 1)) {
    const type = view[offset];
    if (type !== QUERY && type !== PARSE) continue;
    let start = offset + 5;
    if (type === PARSE) start = view.indexOf(0, start) + 1; // past the statement's name
    const end = view.indexOf(0, start);
    const sql = view
      .toString('utf8', start, end < 0 ? view.length : end)
      .replace(/--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'/g, ' ');
    for (const match of sql.matchAll(/\b(un)?listen\s+(\*|"(?:[^"]|"")+"|[a-z_][\w$]*)/gi)) {
      const name = match[2] as string;
      const channel = name.startsWith('"')
        ? name.slice(1, -1).replaceAll('""', '"')
        : name === '*'
          ? '*'
          : name.toLowerCase();
      if (match[1] === undefined) {
        if (channel !== '*') changes.push({ listen: true, channel });
      } else changes.push({ listen: false, channel });
    }
  }
  return changes;
}

/** A reply's NotificationResponses taken out, with the channel each is for. */
export function takeNotifications(messages: Uint8Array): {
  readonly rest: Uint8Array;
  readonly notifications: readonly { readonly channel: string; readonly message: Uint8Array }[];
} {
  const view = Buffer.from(messages.buffer, messages.byteOffset, messages.byteLength);
  const notifications: { channel: string; message: Uint8Array }[] = [];
  const kept: Uint8Array[] = [];
  let from = 0;
  for (let offset = 0; offset + 5 <= view.length;) {
    const next = offset + 1 + view.readUInt32BE(offset + 1);
    if (view[offset] === NOTIFICATION) {
      const channelEnd = view.indexOf(0, offset + 9);
      notifications.push({
        channel: view.toString('utf8', offset + 9, channelEnd),
        message: Buffer.from(view.subarray(offset, next)),
      });
      if (offset > from) kept.push(view.subarray(from, offset));
      from = next;
    }
    offset = next;
  }
  if (notifications.length === 0) return { rest: messages, notifications };
  if (from < view.length) kept.push(view.subarray(from));
  return { rest: Buffer.concat(kept), notifications };
}

/**
 * Takes the backend's notifications out of a reply to session `processId`: each goes to the
 * sessions listening on its channel (this one's kept in its reply, the others' handed to `notify`),
 * as sent by that session's process.
 */
export function routeNotifications(
  messages: Uint8Array,
  listeners: { listenersOf(channel: string): ReadonlySet<number> },
  processId: number,
  notify: (to: number, message: Uint8Array) => void,
): Uint8Array {
  const { rest, notifications } = takeNotifications(messages);
  if (notifications.length === 0) return messages;
  const own: Uint8Array[] = [];
  for (const { channel, message } of notifications) {
    Buffer.from(message.buffer, message.byteOffset, message.byteLength).writeInt32BE(processId, 5);
    for (const listener of listeners.listenersOf(channel)) {
      if (listener === processId) own.push(message);
      else notify(listener, message);
    }
  }
  return own.length === 0 ? rest : Buffer.concat([...own, rest]);
}

/** Who listens on what, on one shared backend. */
export class Listeners {
  readonly #byChannel = new Map<string, Set<number>>();

  /** The sessions (by process id) listening on `channel`. */
  of(channel: string): ReadonlySet<number> {
    return this.#byChannel.get(channel) ?? new Set();
  }

  /**
   * Applies one session's changes; returns the channels the backend must listen on again (another
   * session still listens on a channel this one's UNLISTEN stopped).
   */
  apply(session: number, changes: readonly ListenChange[]): string[] {
    const relisten = new Set<string>();
    for (const change of changes) {
      if (change.listen) {
        let set = this.#byChannel.get(change.channel);
        if (set === undefined) this.#byChannel.set(change.channel, (set = new Set()));
        set.add(session);
        relisten.delete(change.channel);
        continue;
      }
      const channels = change.channel === '*' ? [...this.#byChannel.keys()] : [change.channel];
      for (const channel of channels) {
        const set = this.#byChannel.get(channel);
        set?.delete(session);
        if (set !== undefined && set.size > 0) relisten.add(channel);
        else this.#byChannel.delete(channel);
      }
    }
    return [...relisten];
  }

  /** Every channel someone listens on. */
  channels(): string[] {
    return [...this.#byChannel.keys()];
  }

  /** A session has gone: it listens on nothing. */
  forget(session: number): void {
    for (const [channel, set] of this.#byChannel) {
      set.delete(session);
      if (set.size === 0) this.#byChannel.delete(channel);
    }
  }
}
