/**
 * A Postgres client's start, up to a proven password, as the real service's proxy runs it: an
 * optional TLS upgrade (`SSLRequest`, or TLS from the first byte as Postgres 17 clients do with
 * `sslnegotiation=direct`, ALPN `postgresql` required; a `GSSENCRequest` is declined), the startup message, then the
 * compute it names: by SNI (the first label of the host the client asked TLS for), by the
 * `options` parameter (`endpoint=<id>`), or else by the password (`endpoint=<id>;<password>`,
 * asked for in clear as the proxy does when it cannot tell, and so only over TLS). A named compute's role proves its
 * password by SCRAM-SHA-256, with channel binding (SCRAM-SHA-256-PLUS) offered over TLS. A
 * CancelRequest is handed on and its connection closed. Bad bytes cost one line to the log and a
 * FATAL 08P01 to the client, never a stack.
 */
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import type { SqlError } from '../domain/sqlState.js';
import {
  cleartextPasswordRequest,
  errorResponse,
  saslContinue,
  saslFinal,
  saslRequest,
} from './backendMessages.js';
import { cancelTarget, type BackendKey } from './cancelKeys.js';
import { ClientMessages } from './clientMessages.js';
import { hangUp } from './hangUp.js';
import { withFirstBytes } from './firstBytes.js';
import {
  endpointFromHost,
  endpointFromOptions,
  splitPassword,
  type NamedEndpoint,
} from './endpointRouting.js';
import { PG_ERRORS } from './pgErrors.js';
import { isScramFailure, SCRAM_SHA_256, SCRAM_SHA_256_PLUS, ScramExchange } from './scram.js';
import type { TlsIdentity } from './tlsIdentity.js';
import { PASSWORD_MESSAGE } from './messageTypes.js';

/** What a handshake needs from its front. */
export interface HandshakeContext {
  /** The front's certificate (no TLS without one: an SSLRequest is declined). */
  readonly tls: TlsIdentity | undefined;
  /**
   * The password of role `user` on compute `endpoint`: `undefined` for an unknown role or compute
   * (its exchange fails as a wrong password would, as the real proxy's does).
   */
  passwordOf(endpoint: NamedEndpoint, user: string): string | undefined;
  /** A CancelRequest arrived. */
  cancel(key: BackendKey): void;
  /**
   * The compute the connection itself names (a WebSocket's `address`), and whether the password is
   * asked in clear (the WebSocket is encrypted already, and the serverless driver sends its
   * password before it is asked, as the real proxy lets it).
   */
  readonly carried?: { readonly endpoint: NamedEndpoint | undefined; readonly cleartext: true };
  /** One line for the server's log (a client that broke the protocol). */
  log(line: string): void;
  /** A login failed (a wrong password): how long to wait before saying so, in milliseconds. */
  loginFailed(): number;
  /** A login succeeded. */
  loginSucceeded(): void;
}

/** A client whose password holds: where it is, what it asked for, and its messages from here on. */
export interface StartedClient {
  /** The connection from now on (a TLS socket after an upgrade). */
  readonly socket: Duplex;
  readonly endpoint: NamedEndpoint;
  readonly user: string;
  readonly database: string;
  /** The startup parameters as sent (`application_name`, `options`, …). */
  readonly parameters: Readonly<Record<string, string>>;
  /** The reader (of typed messages now), with whatever the client sent after its password. */
  readonly messages: ClientMessages;
  /** Typed messages already read (a client that did not wait for the end of the start). */
  readonly early: readonly Uint8Array[];
}

const SSL_REQUEST = 80_877_103;
/** The first byte of a TLS handshake record: a client that starts TLS at once (direct SSL). */
const TLS_HANDSHAKE = 0x16;
/** The protocol a direct-SSL client must negotiate by ALPN (as Postgres 17 requires). */
const POSTGRES_ALPN = 'postgresql';
/** How long a client may take over its start (Postgres's `authentication_timeout` default). */
const START_TIMEOUT_MS = 60_000;
const GSSENC_REQUEST = 80_877_104;
const PROTOCOL_3_0 = 196_608;

/**
 * Runs the start of a client on `socket`; resolves to the started client, or `undefined` once the
 * connection has been closed (a cancel request, a refusal, a protocol violation, a hang-up).
 */
export function handshake(
  socket: Duplex,
  context: HandshakeContext,
): Promise<StartedClient | undefined> {
  return new Handshake(socket, context).run();
}

class Handshake {
  #socket: Duplex;
  readonly #context: HandshakeContext;
  readonly #messages = new ClientMessages();
  readonly #queue: Uint8Array[] = [];
  #wake: (() => void) | undefined;
  #closed = false;
  /** Whether any byte has come yet (the first tells a direct-SSL client). */
  #heardFrom = false;
  /** The first bytes of a client that began with a TLS handshake, kept for the TLS layer. */
  #directTls: Buffer | undefined;
  /** A TLS handshake is under way (the socket is not yet the TLS layer). */
  #securing = false;
  readonly #onData = (chunk: Buffer) => this.#take(chunk);
  readonly #onGone = () => this.#close();

  constructor(socket: Duplex, context: HandshakeContext) {
    this.#socket = socket;
    this.#context = context;
  }

  async run(): Promise<StartedClient | undefined> {
    this.#listen(this.#socket);
    // As Postgres's authentication_timeout: a client that does not finish its start is let go.
    const timer = setTimeout(() => {
      // Mid-TLS-handshake a plaintext error would be noise in the client's TLS stream: just close.
      if (this.#securing) {
        this.#context.log('a client broke the protocol: no TLS handshake within a minute');
        this.#end();
        return;
      }
      this.#violation('no start within a minute', {
        code: '08P01',
        message: 'canceling authentication due to timeout',
      });
    }, START_TIMEOUT_MS);
    try {
      return await this.#start();
    } finally {
      clearTimeout(timer);
      // Bytes that come before the session reads again wait in the socket, not on the floor (a
      // connection already hung up drains instead, see `hangUp`).
      if (!this.#closed) this.#socket.pause();
      this.#unlisten(this.#socket);
    }
  }

  async #start(): Promise<StartedClient | undefined> {
    for (;;) {
      const message = await this.#next();
      const direct = this.#directTls;
      if (direct !== undefined) {
        this.#directTls = undefined;
        if (!(await this.#upgradeDirect(direct))) return undefined;
        continue;
      }
      if (message === undefined) return undefined;
      const view = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
      const code = view.readInt32BE(4);
      const cancel = cancelTarget(message);
      if (cancel !== undefined) {
        this.#context.cancel(cancel);
        return this.#end();
      }
      if (code === SSL_REQUEST && message.length === 8) {
        if (this.#context.tls === undefined || this.#socket instanceof TLSSocket) {
          this.#socket.write('N');
          continue;
        }
        // Bytes sent in the clear behind the request would pass as sent over TLS (CVE-2021-23214).
        if (this.#queue.length > 0 || this.#messages.buffered > 0)
          return this.#violation('unencrypted data after an SSL request', {
            code: '08P01',
            message: 'received unencrypted data after SSL request',
          });
        if (!(await this.#upgrade(this.#context.tls))) return undefined;
        continue;
      }
      if (code === GSSENC_REQUEST && message.length === 8) {
        this.#socket.write('N');
        continue;
      }
      if (code !== PROTOCOL_3_0) {
        const major = code >>> 16;
        const minor = code & 0xffff;
        return this.#violation(`unsupported frontend protocol ${major}.${minor}`, {
          code: '0A000',
          message: `unsupported frontend protocol ${major}.${minor}: server supports 3.0 to 3.0`,
        });
      }
      const parameters = startupParameters(view);
      if (parameters === undefined)
        return this.#violation('invalid startup packet layout', {
          code: '08P01',
          message: 'invalid startup packet layout: expected terminator as last byte',
        });
      return this.#authenticate(parameters);
    }
  }

  async #authenticate(
    parameters: Readonly<Record<string, string>>,
  ): Promise<StartedClient | undefined> {
    const user = parameters['user'];
    if (user === undefined || user === '')
      return this.#refuse({
        sqlstate: '28000',
        message: 'no PostgreSQL user name specified in startup packet',
      });
    const database = parameters['database'] ?? user;
    const named =
      this.#sniEndpoint() ??
      endpointFromOptions(parameters['options']) ??
      this.#context.carried?.endpoint;
    if (this.#context.carried !== undefined)
      return this.#cleartext(parameters, user, database, named);
    // A password in clear only inside TLS, as the real proxy asks it (over TCP it takes no client
    // without TLS at all; here SCRAM, which never sends the password, may go without).
    if (named === undefined)
      return this.#socket instanceof TLSSocket
        ? this.#cleartext(parameters, user, database, named)
        : this.#refuse(PG_ERRORS.insecure);
    const password = this.#context.passwordOf(named, user);
    const proven = await this.#scram(password, user);
    if (!proven) return undefined;
    return this.#started(named, user, database, parameters);
  }

  /**
   * The password in clear: when no compute is named before it (then `endpoint=<id>;<password>`),
   * or on a connection that asks for it so.
   */
  async #cleartext(
    parameters: Readonly<Record<string, string>>,
    user: string,
    database: string,
    named: NamedEndpoint | undefined,
  ): Promise<StartedClient | undefined> {
    this.#write(cleartextPasswordRequest());
    const message = await this.#next();
    if (message === undefined) return undefined;
    if (message[0] !== PASSWORD_MESSAGE)
      return this.#violation('expected a password message', {
        code: '08P01',
        message: `expected password response, got message type ${message[0] ?? 0}`,
      });
    const sent = cstringAt(message, 5);
    const split = splitPassword(sent);
    const endpoint = split.endpoint ?? named;
    const password = split.endpoint === undefined ? sent : split.password;
    if (endpoint === undefined) return this.#refuse(PG_ERRORS.endpointNotSpecified);
    const expected = this.#context.passwordOf(endpoint, user);
    if (expected === undefined || expected !== password) return this.#refusePassword(user);
    return this.#started(endpoint, user, database, parameters);
  }

  /** The SCRAM exchange for a role whose password is `password` (none: the role is unknown). */
  async #scram(password: string | undefined, user: string): Promise<boolean> {
    const endPoint = this.#socket instanceof TLSSocket ? this.#context.tls?.endPoint : undefined;
    const mechanisms =
      endPoint === undefined ? [SCRAM_SHA_256] : [SCRAM_SHA_256_PLUS, SCRAM_SHA_256];
    this.#write(saslRequest(mechanisms));
    // An unknown role goes through the same exchange and fails it, as Postgres does.
    const exchange = new ScramExchange(password ?? `\0unknown role ${user}`, endPoint);
    const initial = await this.#next();
    if (initial === undefined) return false;
    const start = initialResponse(initial);
    if (start === undefined) return this.#badSasl('malformed SASLInitialResponse');
    const serverFirst = exchange.first(start.mechanism, start.data);
    if (isScramFailure(serverFirst)) return this.#badSasl(serverFirst.message);
    this.#write(saslContinue(serverFirst));
    const response = await this.#next();
    if (response === undefined) return false;
    if (response[0] !== PASSWORD_MESSAGE) return this.#badSasl('expected a SASLResponse');
    const serverFinal = exchange.final(Buffer.from(response.subarray(5)).toString('utf8'));
    if (isScramFailure(serverFinal)) {
      if (serverFinal.kind === 'password' || password === undefined)
        await this.#refusePassword(user);
      else this.#badSasl(serverFinal.message);
      return false;
    }
    this.#write(saslFinal(serverFinal));
    return true;
  }

  #started(
    endpoint: NamedEndpoint,
    user: string,
    database: string,
    parameters: Readonly<Record<string, string>>,
  ): StartedClient {
    this.#messages.loggedIn();
    this.#context.loginSucceeded();
    return {
      socket: this.#socket,
      endpoint,
      user,
      database,
      parameters,
      messages: this.#messages,
      early: this.#queue.splice(0),
    };
  }

  /** The compute named by the host the client asked TLS for (its first label), if any. */
  #sniEndpoint(): NamedEndpoint | undefined {
    const socket = this.#socket;
    if (!(socket instanceof TLSSocket)) return undefined;
    const host = (socket as TLSSocket & { servername?: string | false }).servername;
    return typeof host === 'string' ? endpointFromHost(host) : undefined;
  }

  /**
   * A client that began with a TLS handshake (Postgres 17's `sslnegotiation=direct`): TLS from its
   * first bytes, no `S` said, and ALPN `postgresql` required as Postgres requires it, so a client
   * of another protocol is not taken for one.
   */
  async #upgradeDirect(first: Buffer): Promise<boolean> {
    const tls = this.#context.tls;
    if (tls === undefined) {
      this.#context.log('a client began with TLS, and this front has none');
      this.#end();
      return false;
    }
    const plain = this.#socket;
    const secure = await this.#secure(withFirstBytes(plain, first), tls, true);
    if (secure === undefined) return false;
    if (secure.alpnProtocol !== POSTGRES_ALPN) {
      this.#socket = secure;
      this.#listen(secure);
      this.#violation('direct SSL without ALPN', {
        code: '08P01',
        message:
          'received direct SSL connection request without ALPN protocol negotiation extension',
      });
      return false;
    }
    this.#socket = secure;
    this.#listen(secure);
    return true;
  }

  /** The TLS layer over `under`; `undefined` (the connection closed) when its handshake fails. */
  async #secure(under: Duplex, tls: TlsIdentity, direct: boolean): Promise<TLSSocket | undefined> {
    const secure = new TLSSocket(under, {
      isServer: true,
      key: tls.key,
      cert: tls.cert,
      ...(direct ? { ALPNProtocols: [POSTGRES_ALPN] } : {}),
    });
    this.#securing = true;
    const ready = await new Promise<boolean>((resolve) => {
      secure.once('secure', () => resolve(true));
      secure.once('error', () => resolve(false));
      secure.once('close', () => resolve(false));
    }).finally(() => (this.#securing = false));
    secure.on('error', () => undefined);
    if (ready) return secure;
    under.destroy();
    this.#socket.destroy();
    this.#closed = true;
    return undefined;
  }

  async #upgrade(tls: TlsIdentity): Promise<boolean> {
    const plain = this.#socket;
    this.#unlisten(plain);
    plain.write('S');
    const secure = await this.#secure(plain, tls, false);
    if (secure === undefined) return false;
    this.#socket = secure;
    this.#listen(secure);
    return true;
  }

  #listen(socket: Duplex): void {
    socket.on('data', this.#onData);
    socket.on('end', this.#onGone);
    socket.on('close', this.#onGone);
  }

  #unlisten(socket: Duplex): void {
    socket.off('data', this.#onData);
    socket.off('end', this.#onGone);
    socket.off('close', this.#onGone);
  }

  #take(chunk: Buffer): void {
    if (!this.#heardFrom && chunk.byteLength > 0) {
      this.#heardFrom = true;
      // A length word never starts with 0x16 (that would be 369 MB): this is TLS from the start.
      if (chunk[0] === TLS_HANDSHAKE && !(this.#socket instanceof TLSSocket)) {
        this.#unlisten(this.#socket);
        this.#socket.pause();
        this.#directTls = chunk;
        this.#wake?.();
        return;
      }
    }
    const read = this.#messages.read(chunk);
    this.#queue.push(...read.messages);
    if (read.violation !== undefined) {
      const { sqlstate, message } = read.violation;
      this.#context.log(`a client broke the protocol: ${message}`);
      if (read.quiet !== true)
        this.#write(errorResponse({ severity: 'FATAL', code: sqlstate, message }));
      this.#end();
    }
    this.#wake?.();
  }

  /** The next message, or `undefined` once the connection is closed (or turns to TLS at once). */
  async #next(): Promise<Uint8Array | undefined> {
    for (;;) {
      const message = this.#queue.shift();
      if (message !== undefined) return message;
      if (this.#closed || this.#directTls !== undefined) return undefined;
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = undefined;
    }
  }

  #badSasl(reason: string): false {
    this.#violation(reason, { code: '08P01', message: reason });
    return false;
  }

  #violation(line: string, error: { code: string; message: string }): undefined {
    this.#context.log(`a client broke the protocol: ${line}`);
    this.#write(errorResponse({ severity: 'FATAL', ...error }));
    return this.#end();
  }

  /** A wrong password (or an unknown role): refused, after the throttle's delay. */
  async #refusePassword(user: string): Promise<undefined> {
    const delay = this.#context.loginFailed();
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    return this.#refuse(PG_ERRORS.passwordFailed(user));
  }

  #refuse(error: SqlError): undefined {
    this.#write(errorResponse({ severity: 'FATAL', code: error.sqlstate, message: error.message }));
    return this.#end();
  }

  #write(message: Uint8Array): void {
    const socket = this.#socket;
    if (!socket.destroyed && !socket.writableEnded) socket.write(message);
  }

  #end(): undefined {
    this.#closed = true;
    hangUp(this.#socket);
    this.#wake?.();
    return undefined;
  }

  #close(): void {
    this.#closed = true;
    this.#wake?.();
  }
}

/** The parameters of a startup message (`length code (name value)* \0`), or `undefined` if malformed. */
function startupParameters(view: Buffer): Record<string, string> | undefined {
  if (view[view.length - 1] !== 0) return undefined;
  const parameters: Record<string, string> = {};
  let offset = 8;
  while (offset < view.length - 1) {
    const nameEnd = view.indexOf(0, offset);
    const valueEnd = nameEnd < 0 ? -1 : view.indexOf(0, nameEnd + 1);
    if (nameEnd < 0 || valueEnd < 0) return undefined;
    parameters[view.toString('utf8', offset, nameEnd)] = view.toString(
      'utf8',
      nameEnd + 1,
      valueEnd,
    );
    offset = valueEnd + 1;
  }
  return parameters;
}

/** A SASLInitialResponse: the mechanism, then the client-first message. */
function initialResponse(
  message: Uint8Array,
): { readonly mechanism: string; readonly data: string } | undefined {
  if (message[0] !== PASSWORD_MESSAGE) return undefined;
  const view = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  const end = view.indexOf(0, 5);
  if (end < 0 || end + 5 > view.length) return undefined;
  const length = view.readInt32BE(end + 1);
  const data = view.subarray(end + 5, length < 0 ? end + 5 : end + 5 + length);
  return { mechanism: view.toString('utf8', 5, end), data: data.toString('utf8') };
}

function cstringAt(message: Uint8Array, offset: number): string {
  const view = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  const end = view.indexOf(0, offset);
  return view.toString('utf8', offset, end < 0 ? view.length : end);
}
