/**
 * An intercepted WebSocket client (msw's `ws` connection) as a byte stream, the shape the Postgres
 * front takes a client in: what the client sends comes out in order (a `Blob` is read before what
 * follows it), what the front writes goes to the client as binary messages, and either end closing
 * closes the other.
 */
import { Duplex } from 'node:stream';
import type { WebSocketData } from 'msw';

/** The client side of an intercepted WebSocket, as msw hands it to a `connection` listener. */
interface InterceptedClient {
  send(data: WebSocketData): void;
  close(code?: number, reason?: string): void;
  addEventListener(
    type: 'message',
    listener: (event: { readonly data: WebSocketData }) => void,
  ): void;
  addEventListener(type: 'close', listener: () => void): void;
}

/** `client` as a duplex stream of bytes. */
export function webSocketStream(client: InterceptedClient): Duplex {
  let open = true;
  const closeClient = () => {
    if (!open) return;
    open = false;
    client.close();
  };
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      if (open) client.send(new Uint8Array(chunk));
      done();
    },
    final(done) {
      closeClient();
      done();
    },
    destroy(error, done) {
      closeClient();
      done(error);
    },
  });
  // Messages are taken in order even when one is a Blob, read asynchronously.
  let arrived = Promise.resolve();
  // A message that cannot be read (a Blob that fails) ends the stream: the chain never rejects.
  const failed = (error: unknown): void => {
    stream.destroy(error instanceof Error ? error : undefined);
  };
  client.addEventListener('message', (event) => {
    arrived = arrived
      .then(async () => {
        stream.push(await bytesOf(event.data));
      })
      .catch(failed);
  });
  client.addEventListener('close', () => {
    open = false;
    arrived = arrived
      .then(() => {
        stream.push(null);
      })
      .catch(failed);
  });
  return stream;
}

async function bytesOf(data: WebSocketData): Promise<Buffer> {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (data instanceof Blob) return Buffer.from(await data.arrayBuffer());
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}
