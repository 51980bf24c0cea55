/**
 * A socket with bytes already read from it put back in front: what the TLS layer of a client that
 * began with TLS reads (the handshake read its first bytes to tell it from a startup packet).
 */
import { Duplex } from 'node:stream';

/**
 * `socket` as a stream that gives `first` (bytes already read from it) before the rest: the TLS
 * layer of a direct-SSL client reads its ClientHello from the start.
 */
export function withFirstBytes(socket: Duplex, first: Buffer): Duplex {
  const joined = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, _encoding, done) {
      socket.write(chunk, done);
    },
    final(done) {
      socket.end();
      done();
    },
    destroy(error, done) {
      socket.destroy(error ?? undefined);
      done(error);
    },
  });
  joined.push(first);
  socket.on('data', (chunk: Buffer) => {
    if (!joined.push(chunk)) socket.pause();
  });
  socket.on('end', () => joined.push(null));
  socket.on('close', () => joined.destroy());
  socket.on('error', () => undefined);
  return joined;
}
