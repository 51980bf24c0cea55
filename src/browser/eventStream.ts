/**
 * The page's live connection: the event stream read with `fetch`, and read again from where it
 * was whenever it ends (a drop, a restart of the server, or a `resync` from a server the page fell
 * behind). Each message with an id moves the cursor the page resumes from (`Last-Event-ID`), once
 * the page has taken it; a `resync` has none, and nothing after it is taken.
 */
import type { ApiClient } from './apiClient.js';
import { EventStreamText } from './eventStreamText.js';

/** Wall ms before reading again after a stream ended, and after one could not be opened. */
const RESUME_MS = 200;
const RETRY_MS = 1_000;

/** What the stream tells the page. */
export interface StreamHooks {
  /** A message with data (its JSON, parsed). Throwing drops the connection, which resumes there. */
  message(event: string, data: unknown): void;
  /** The connection is up, or down and being made again. */
  link(how: 'up' | 'down'): void;
  /** Whether to stop reading (the page asks for a key). */
  stopped(): boolean;
}

/** The event stream of the dashboard, read until the page stops it. */
export class EventStream {
  /** The id of the last message taken: where the stream resumes. */
  lastId: string | undefined;
  #reading = false;

  constructor(
    readonly api: ApiClient,
    readonly hooks: StreamHooks,
    readonly wait: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** Reads the stream, again and again, until the page stops it (a second call does nothing). */
  async run(): Promise<void> {
    if (this.#reading) return;
    this.#reading = true;
    for (;;) {
      let ok: boolean;
      try {
        ok = await this.#readOnce();
      } catch {
        ok = false;
      }
      if (this.hooks.stopped()) break;
      this.hooks.link('down');
      await this.wait(ok ? RESUME_MS : RETRY_MS);
    }
    this.#reading = false;
  }

  /** Reads the stream until it ends; false when it could not be opened. */
  async #readOnce(): Promise<boolean> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.lastId) headers['last-event-id'] = this.lastId;
    const response = await this.api.send('/_sim/events', { headers });
    if (response === undefined || !response.ok || !response.body) return false;
    this.hooks.link('up');
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const text = new EventStreamText();
    for (;;) {
      const next = await reader.read();
      if (next.done) return true;
      for (const message of text.take(decoder.decode(next.value, { stream: true }))) {
        if (message.event === 'resync') {
          await reader.cancel().catch(() => undefined);
          return true;
        }
        if (message.data !== '') this.hooks.message(message.event, JSON.parse(message.data));
        if (message.id !== undefined) this.lastId = message.id;
      }
    }
  }
}
