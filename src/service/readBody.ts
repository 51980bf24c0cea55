/**
 * Reads the body of a Web `Request` (or a `RequestLike`): at most 1 MiB (413 beyond, without reading the rest: a declared
 * length over the limit is refused before reading anything), parsed as JSON (400 when it is not).
 * An empty body is `undefined`. Runtime-neutral: an adapter may collect the body itself (`CollectableBody`).
 */
import { err, ok, type Result } from '../core/result.js';
import { errorAnswer, type Answer } from './errorTable.js';
import type { CollectedBody, RequestLike } from './requestLike.js';

/** The largest body a request may carry. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Reads and parses the body of `request`; a refusal is the answer to send. */
export async function readBody(request: RequestLike): Promise<Result<unknown, Answer>> {
  const body = request.body;
  if (body === null) return ok(undefined);
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) {
    if ('discard' in body) body.discard();
    else await body.cancel().catch(() => undefined);
    return err(tooLarge());
  }
  const collected = 'collect' in body ? await body.collect(MAX_BODY_BYTES) : await collect(body);
  if (!collected.ok)
    return err(
      collected.reason === 'too_large'
        ? tooLarge()
        : errorAnswer('invalid_input', 'the request body could not be read'),
    );
  const text = decode(collected.chunks, collected.size);
  if (text.trim() === '') return ok(undefined);
  try {
    return ok(JSON.parse(text));
  } catch (error) {
    return err(
      errorAnswer(
        'invalid_input',
        `the request body is not valid JSON: ${(error as Error).message}`,
      ),
    );
  }
}

/** Reads a Web stream's chunks, stopping (and cancelling the rest) past the limit. */
async function collect(body: ReadableStream<Uint8Array>): Promise<CollectedBody> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return { ok: true, chunks, size };
      size += next.value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, reason: 'too_large' };
      }
      chunks.push(next.value);
    }
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
}

function decode(chunks: readonly Uint8Array[], size: number): string {
  if (chunks.length === 1) return DECODER.decode(chunks[0]);
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return DECODER.decode(whole);
}

const DECODER = new TextDecoder();

/** The rest of an oversized body is not read: the connection cannot carry another request. */
function tooLarge(): Answer {
  return errorAnswer(
    'payload_too_large',
    `the request body is larger than ${MAX_BODY_BYTES} bytes`,
    { connection: 'close' },
  );
}
