/**
 * Postgres over WebSocket at `/v2` on serve's HTTP port, the way the serverless driver's `Pool` and
 * `Client` reach the real service (its proxy form `/v2?address=host:port` included): the WebSocket
 * becomes a stream of Postgres protocol into the same front as TCP clients, the compute named by
 * the first label of `address` (or by the password, `endpoint=<id>;<password>`). Other upgrades
 * are refused with 404.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { endpointFromHost } from '../pg/endpointRouting.js';
import type { PostgresFront } from '../pg/postgresFront.js';

/** Answers HTTP upgrades of one server. */
export class WebSocketRoute {
  readonly #server = new WebSocketServer({ noServer: true, perMessageDeflate: false });

  /** Takes an upgrade request: `/v2` with a front becomes a Postgres client; anything else is refused. */
  upgrade(
    incoming: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    front: PostgresFront | undefined,
  ): void {
    socket.on('error', () => undefined);
    const url = new URL(incoming.url ?? '/', 'http://localhost');
    if (url.pathname !== '/v2' || front === undefined) {
      const reason =
        front === undefined ? 'Postgres over WebSocket needs serve --pg-port' : 'no such route';
      socket.end(
        `HTTP/1.1 404 Not Found\r\ncontent-type: text/plain\r\ncontent-length: ${reason.length}\r\nconnection: close\r\n\r\n${reason}`,
      );
      return;
    }
    const address = url.searchParams.get('address') ?? incoming.headers.host ?? '';
    const endpoint = endpointFromHost(address.replace(/:\d+$/, ''));
    this.#server.handleUpgrade(incoming, socket, head, (webSocket) => {
      const stream = createWebSocketStream(webSocket);
      stream.on('error', () => undefined);
      front.acceptStream(stream, endpoint);
    });
  }

  /** Closes the WebSocket server (its clients are ended by the front). */
  close(): void {
    this.#server.close();
  }
}
