/**
 * Postgres over WebSocket at `/v2` on serve's HTTP port, the way the serverless driver's `Pool` and
 * `Client` reach the real service (its proxy form `/v2?address=host:port` included): the WebSocket
 * becomes a stream of Postgres protocol into the same front as TCP clients, the compute named by
 * the first label of `address` (or by the password, `endpoint=<id>;<password>`). Other upgrades
 * are refused with 404. ws is an optional package, loaded when a Postgres front starts.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { createWebSocketStream, WebSocketServer } from 'ws';
import { POSTGRES_FEATURE } from '../packages/optionalFeatures.js';
import { loadOptional } from '../packages/optionalPackage.js';
import { endpointFromHost } from '../pg/endpointRouting.js';
import type { PostgresFront } from '../pg/postgresFront.js';

/** Answers HTTP upgrades of one server. */
export class WebSocketRoute {
  #ws:
    | { readonly server: WebSocketServer; readonly toStream: typeof createWebSocketStream }
    | undefined;

  /**
   * Loads ws, before the first upgrade with a front; rejects with a `MissingPackageError` when it
   * is not installed.
   */
  async prepare(): Promise<void> {
    if (this.#ws !== undefined) return;
    const ws = await loadOptional(POSTGRES_FEATURE, 'ws', () => import('ws'));
    this.#ws = {
      server: new ws.WebSocketServer({ noServer: true, perMessageDeflate: false }),
      toStream: ws.createWebSocketStream,
    };
  }

  /**
   * Takes an upgrade request to `/v2` (the table of served routes sends only those): with a front it
   * becomes a Postgres client; without one it is refused.
   */
  upgrade(
    incoming: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    front: PostgresFront | undefined,
  ): void {
    const ws = this.#ws;
    if (front === undefined || ws === undefined) {
      refuseUpgrade(socket, 'Postgres over WebSocket needs serve --pg-port');
      return;
    }
    socket.on('error', () => undefined);
    const url = new URL(incoming.url ?? '/', 'http://localhost');
    const address = url.searchParams.get('address') ?? incoming.headers.host ?? '';
    const endpoint = endpointFromHost(address.replace(/:\d+$/, ''));
    ws.server.handleUpgrade(incoming, socket, head, (webSocket) => {
      const stream = ws.toStream(webSocket);
      stream.on('error', () => undefined);
      front.acceptStream(stream, endpoint, incoming.socket.remoteAddress ?? '');
    });
  }

  /** Closes the WebSocket server (its clients are ended by the front). */
  close(): void {
    this.#ws?.server.close();
  }
}

/** Refuses an upgrade with a 404 saying why, and closes the socket. */
export function refuseUpgrade(socket: Duplex, reason: string): void {
  socket.on('error', () => undefined);
  socket.end(
    `HTTP/1.1 404 Not Found\r\ncontent-type: text/plain\r\ncontent-length: ${reason.length}\r\nconnection: close\r\n\r\n${reason}`,
  );
}
