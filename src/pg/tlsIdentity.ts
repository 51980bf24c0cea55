/**
 * The front's TLS identity: a certificate and its key, from files the user names or, by default, a
 * self-signed one made at start for the endpoint hosts' domain (clients that use
 * `sslmode=require` encrypt without checking it, as they do with the real service's proxy). With
 * it goes the certificate's `tls-server-end-point` hash (RFC 5929) that SCRAM channel binding
 * proves.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { POSTGRES_FEATURE } from '../packages/optionalFeatures.js';
import { loadOptional } from '../packages/optionalPackage.js';

/** A certificate, its private key, and its end-point hash. */
export interface TlsIdentity {
  readonly cert: string;
  readonly key: string;
  readonly endPoint: Buffer;
}

/** Where a user's certificate and key are (PEM files). */
export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
}

/** The identity from `files`, or a self-signed one for `*.{domain}`, `localhost` and loopback. */
export async function tlsIdentity(domain: string, files?: TlsFiles): Promise<TlsIdentity> {
  if (files !== undefined) {
    const read = (path: string, what: string) =>
      readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new Error(`cannot read the TLS ${what} ${path}: ${error.code ?? error.message}`);
      });
    // One after the other, so that when both are missing the error names the certificate every
    // time (read side by side, whichever failed first won).
    const cert = await read(files.certFile, 'certificate');
    const key = await read(files.keyFile, 'key');
    try {
      return { cert, key, endPoint: endPointHash(cert) };
    } catch {
      throw new Error(`the TLS certificate ${files.certFile} is not a PEM certificate`);
    }
  }
  // Loaded only when a front needs TLS: nothing else in computesim uses it.
  const { generate } = await loadOptional(
    POSTGRES_FEATURE,
    'selfsigned',
    () => import('selfsigned'),
  );
  const made = await generate([{ name: 'commonName', value: `*.${domain}` }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: `*.${domain}` },
          { type: 2, value: domain },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { cert: made.cert, key: made.private, endPoint: endPointHash(made.cert) };
}

/**
 * The hash of the certificate that `tls-server-end-point` binds to: with the hash of its signature
 * algorithm, SHA-256 for MD5 and SHA-1 (RFC 5929, section 4.1).
 */
function endPointHash(certPem: string): Buffer {
  const der = new X509Certificate(certPem).raw;
  return createHash(signatureHash(der)).update(der).digest();
}

/** The signature algorithms whose hash is not SHA-256, by their object identifier's DER bytes. */
const WIDER_HASHES: Readonly<Record<string, string>> = {
  '2a864886f70d01010c': 'sha384', // sha384WithRSAEncryption
  '2a864886f70d01010d': 'sha512', // sha512WithRSAEncryption
  '2a8648ce3d040303': 'sha384', // ecdsa-with-SHA384
  '2a8648ce3d040304': 'sha512', // ecdsa-with-SHA512
};

/**
 * The hash of a certificate's signature algorithm: `Certificate ::= SEQUENCE { tbsCertificate,
 * signatureAlgorithm SEQUENCE { algorithm OID, … }, signature }`.
 */
function signatureHash(der: Buffer): string {
  const certificate = element(der, 0);
  const signed = element(der, certificate.body);
  const algorithm = element(der, signed.end);
  const id = element(der, algorithm.body);
  return WIDER_HASHES[der.subarray(id.body, id.end).toString('hex')] ?? 'sha256';
}

/** Where the DER element at `offset` has its body and where it ends. */
function element(der: Buffer, offset: number): { readonly body: number; readonly end: number } {
  const first = der[offset + 1] ?? 0;
  if (first < 0x80) return { body: offset + 2, end: offset + 2 + first };
  const bytes = first & 0x7f;
  let length = 0;
  for (let i = 0; i < bytes; i++) length = length * 256 + (der[offset + 2 + i] ?? 0);
  return { body: offset + 2 + bytes, end: offset + 2 + bytes + length };
}
