/**
 * A file read synchronously in chunks of whole lines: a file of any size is walked with a few MiB
 * of memory and never held as one string (V8 strings stop at 512 MiB), and each chunk is decoded or
 * checksummed in one native call instead of one per line.
 */
import { readSync } from 'node:fs';

/** A run of whole lines of a file. */
export interface LineChunk {
  /** The bytes: whole lines, each ending in a newline, except a file's incomplete last line. */
  readonly data: Buffer;
  /** Byte offset of `data` in the file. */
  readonly start: number;
}

const CHUNK = 4 << 20;
const NEWLINE = 0x0a;

/** Walks the first `length` bytes of the open file `fd` in chunks that end at a newline. */
export function* lineChunks(fd: number, length: number): Generator<LineChunk> {
  let position = 0;
  /** The start of a line the previous read did not finish. */
  let carry: Buffer = Buffer.alloc(0);
  while (position < length) {
    const size = Math.min(Math.max(CHUNK, carry.length * 2), length - position);
    const chunk = Buffer.allocUnsafe(carry.length + size);
    carry.copy(chunk);
    const read = readSync(fd, chunk, carry.length, size, position);
    if (read === 0) break;
    const data = chunk.subarray(0, carry.length + read);
    const dataStart = position - carry.length;
    position += read;
    const cut = data.lastIndexOf(NEWLINE) + 1;
    if (cut > 0) yield { data: data.subarray(0, cut), start: dataStart };
    carry = data.subarray(cut);
  }
  if (carry.length > 0) yield { data: carry, start: position - carry.length };
}
