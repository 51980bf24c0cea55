/**
 * A number of readers of a `serve` process's event stream that never read, kept up: once a second
 * the process's open connections are read from /proc (`heldPorts`), and a reader the server held
 * and has let go (its connection closed, whether the reader read or not) is counted and, if asked,
 * replaced by a new one, as a page that reconnects would be. No reader reads until `letGoAll`.
 */
import type { Socket } from 'node:net';
import { heldPorts } from './heldConnections.js';
import { letGo, stalledReader, type ReaderEnd } from './stalledReaders.js';

/** How the pool runs. */
export interface StalledReaderPoolOptions {
  /** The process serving (whose connections are read from /proc). */
  readonly pid: number;
  /** Its API's base URL, and the key to read the stream with. */
  readonly base: string;
  readonly key: string;
  /** Readers stalled at once. */
  readonly readers: number;
  /** Whether a reader the server let go is replaced by a new one. */
  readonly replaceDropped: boolean;
}

/** Readers stalled on a server's event stream. */
export class StalledReaderPool {
  readonly #options: StalledReaderPoolOptions;
  readonly #open = new Set<Socket>();
  /** Readers the server has been seen holding (a new one may not be accepted yet). */
  readonly #seenHeld = new WeakSet<Socket>();
  readonly #timer: ReturnType<typeof setInterval>;
  #opened = 0;
  #dropped = 0;

  constructor(options: StalledReaderPoolOptions) {
    this.#options = options;
    for (let i = 0; i < options.readers; i++) this.#openOne();
    this.#timer = setInterval(() => this.check(), 1_000);
  }

  /** Readers opened so far. */
  get opened(): number {
    return this.#opened;
  }

  /** Readers the server held and then let go, seen so far. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The local ports of the readers open now. */
  ports(): Set<number> {
    return new Set([...this.#open].flatMap((socket) => socket.localPort ?? []));
  }

  /** How many of the readers open now the server holds. */
  held(): number {
    return heldPorts(this.#options.pid, this.ports()).size;
  }

  /** Notes which readers the server holds and which it let go (replacing those, if asked). */
  check(): void {
    const held = heldPorts(this.#options.pid, this.ports());
    for (const socket of [...this.#open]) {
      const port = socket.localPort;
      if (port !== undefined && held.has(port)) this.#seenHeld.add(socket);
      else if (this.#seenHeld.has(socket)) {
        this.#seenHeld.delete(socket);
        this.#dropped++;
        if (!this.#options.replaceDropped) continue;
        this.#open.delete(socket);
        socket.destroy();
        this.#openOne();
      }
    }
  }

  /** Stops watching, and lets every reader still open read at last (`letGo`, `graceMs` each). */
  async letGoAll(graceMs: number): Promise<ReaderEnd[]> {
    clearInterval(this.#timer);
    const ends = await Promise.all([...this.#open].map((socket) => letGo(socket, graceMs)));
    this.#open.clear();
    return ends;
  }

  #openOne(): void {
    this.#open.add(stalledReader(this.#options.base, this.#options.key));
    this.#opened++;
  }
}
