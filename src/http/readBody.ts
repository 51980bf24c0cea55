/**
 * Reads a request body: at most 1 MiB (413 beyond, without reading the rest), parsed as JSON (400
 * when it is not). An empty body is `undefined`.
 */
import type { IncomingMessage } from 'node:http';
import { err, ok, type Result } from '../core/result.js';

/** The largest body a request may carry. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Why a body was refused: an HTTP status with an error code and message. */
export interface BodyProblem {
  readonly status: 400 | 413;
  readonly code: string;
  readonly message: string;
}

/** Reads and parses the body of `request`. */
export function readBody(request: IncomingMessage): Promise<Result<unknown, BodyProblem>> {
  return new Promise((resolve) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      request.resume();
      resolve(err(tooLarge()));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    request.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        refused = true;
        resolve(err(tooLarge()));
        return;
      }
      chunks.push(chunk);
    });
    request.on('error', () => {
      if (!refused)
        resolve(
          err({
            status: 400,
            code: 'invalid_input',
            message: 'the request body could not be read',
          }),
        );
      refused = true;
    });
    request.on('end', () => {
      if (refused) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve(ok(undefined));
      try {
        resolve(ok(JSON.parse(text)));
      } catch (error) {
        resolve(
          err({
            status: 400,
            code: 'invalid_input',
            message: `the request body is not valid JSON: ${(error as Error).message}`,
          }),
        );
      }
    });
  });
}

function tooLarge(): BodyProblem {
  return {
    status: 413,
    code: 'payload_too_large',
    message: `the request body is larger than ${MAX_BODY_BYTES} bytes`,
  };
}
