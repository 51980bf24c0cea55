/**
 * The server's side of SCRAM-SHA-256 (RFC 5802, RFC 7677) as Postgres speaks it, with channel
 * binding `tls-server-end-point` (SCRAM-SHA-256-PLUS, RFC 5929) over TLS: the client proves it
 * knows the role's password without sending it, and with channel binding that it talks to this
 * TLS endpoint. The front keeps roles' passwords in clear (the control plane hands them out), so
 * the salted password is derived at each exchange.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';

/** The mechanisms, as AuthenticationSASL names them. */
export const SCRAM_SHA_256 = 'SCRAM-SHA-256';
export const SCRAM_SHA_256_PLUS = 'SCRAM-SHA-256-PLUS';

const ITERATIONS = 4096;

/** Why an exchange failed: a protocol error, or the wrong password. */
export type ScramFailure = { readonly kind: 'protocol' | 'password'; readonly message: string };

/** One SCRAM exchange, from the client's first message to the server's final one. */
export class ScramExchange {
  readonly #password: string;
  /** The server certificate's end-point hash, when the connection has TLS. */
  readonly #endPoint: Buffer | undefined;
  #clientFirstBare = '';
  #serverFirst = '';
  #nonce = '';
  #gs2Header = '';
  readonly #salt = randomBytes(16);

  constructor(password: string, endPoint: Buffer | undefined) {
    this.#password = password;
    this.#endPoint = endPoint;
  }

  /**
   * The server-first message answering the client-first one sent with `mechanism`, or why the
   * exchange cannot go on.
   */
  first(mechanism: string, clientFirst: string): string | ScramFailure {
    const plus = mechanism === SCRAM_SHA_256_PLUS;
    if (mechanism !== SCRAM_SHA_256 && !plus)
      return protocol(`SASL authentication mechanism ${mechanism} is not supported`);
    if (plus && this.#endPoint === undefined)
      return protocol('channel binding is only possible over TLS');
    const match = /^(n|y|p=([^,]*)),([^,]*),(.*)$/.exec(clientFirst);
    if (match === null) return protocol('malformed SCRAM message (client-first)');
    const flag = match[1] as string;
    if (plus !== flag.startsWith('p='))
      return protocol('channel binding flag does not match the SASL mechanism');
    if (plus && match[2] !== 'tls-server-end-point')
      return protocol(`unsupported SCRAM channel-binding type "${match[2] ?? ''}"`);
    // A client that could bind but believes the server cannot, over TLS that offered -PLUS: a downgrade.
    if (flag === 'y' && this.#endPoint !== undefined)
      return protocol('SCRAM channel binding negotiation error');
    this.#gs2Header = `${flag},${match[3] ?? ''},`;
    this.#clientFirstBare = match[4] as string;
    const clientNonce = /(?:^|,)r=([^,]+)/.exec(this.#clientFirstBare)?.[1];
    if (clientNonce === undefined) return protocol('malformed SCRAM message (no nonce)');
    this.#nonce = clientNonce + randomBytes(18).toString('base64');
    this.#serverFirst = `r=${this.#nonce},s=${this.#salt.toString('base64')},i=${ITERATIONS}`;
    return this.#serverFirst;
  }

  /** The server-final message once the client's proof holds, or why it does not. */
  final(clientFinal: string): string | ScramFailure {
    const proofAt = clientFinal.lastIndexOf(',p=');
    if (proofAt < 0) return protocol('malformed SCRAM message (no proof)');
    const withoutProof = clientFinal.slice(0, proofAt);
    const fields = new Map(
      withoutProof.split(',').map((field) => [field.slice(0, 1), field.slice(2)] as const),
    );
    if (fields.get('r') !== this.#nonce) return protocol('SCRAM nonce does not match');
    const binding = this.#gs2Header.startsWith('p=')
      ? Buffer.concat([Buffer.from(this.#gs2Header), this.#endPoint as Buffer])
      : Buffer.from(this.#gs2Header);
    if (fields.get('c') !== binding.toString('base64'))
      return protocol('SCRAM channel binding check failed');
    const salted = pbkdf2Sync(this.#password, this.#salt, ITERATIONS, 32, 'sha256');
    const clientKey = hmac(salted, 'Client Key');
    const storedKey = createHash('sha256').update(clientKey).digest();
    const authMessage = `${this.#clientFirstBare},${this.#serverFirst},${withoutProof}`;
    const signature = hmac(storedKey, authMessage);
    const proof = Buffer.from(clientFinal.slice(proofAt + 3), 'base64');
    if (proof.length !== signature.length) return { kind: 'password', message: 'bad proof' };
    const recovered = Buffer.alloc(proof.length);
    for (let i = 0; i < proof.length; i++)
      recovered[i] = (proof[i] as number) ^ (signature[i] as number);
    const check = createHash('sha256').update(recovered).digest();
    if (!timingSafeEqual(check, storedKey)) return { kind: 'password', message: 'bad proof' };
    const serverSignature = hmac(hmac(salted, 'Server Key'), authMessage);
    return `v=${serverSignature.toString('base64')}`;
  }
}

/** Whether `value` is a failure rather than a message. */
export function isScramFailure(value: string | ScramFailure): value is ScramFailure {
  return typeof value !== 'string';
}

function hmac(key: Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function protocol(message: string): ScramFailure {
  return { kind: 'protocol', message };
}
