/**
 * The lines of a file, read synchronously in chunks: a file of any size is walked with a few MiB of
 * memory and never held as one string (V8 strings stop at 512 MiB).
 */
import { readSync } from 'node:fs';

/** One line of a file, without its newline. */
export interface FileLine {
  /** The line's bytes (a view valid until the walk goes two chunks further; copy to keep). */
  readonly bytes: Buffer;
  /** 1-based line number. */
  readonly line: number;
  /** Byte offset of the line's first byte. */
  readonly start: number;
  /** Byte offset just past the line's newline (or past its last byte when it has none). */
  readonly end: number;
  /** Whether the line ends with a newline (only the file's last line may not). */
  readonly complete: boolean;
}

const CHUNK = 4 << 20;
const NEWLINE = 0x0a;

/** Walks the lines of the first `length` bytes of the open file `fd`. */
export function* fileLines(fd: number, length: number): Generator<FileLine> {
  let position = 0;
  let line = 0;
  /** The start of a line not finished by the previous chunk. */
  let carry: Buffer = Buffer.alloc(0);
  while (position < length) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, length - position));
    const read = readSync(fd, chunk, 0, chunk.length, position);
    if (read === 0) break;
    const data =
      carry.length === 0
        ? chunk.subarray(0, read)
        : Buffer.concat([carry, chunk.subarray(0, read)]);
    const dataStart = position - carry.length;
    position += read;
    let from = 0;
    for (
      let newline = data.indexOf(NEWLINE, from);
      newline !== -1;
      newline = data.indexOf(NEWLINE, from)
    ) {
      yield {
        bytes: data.subarray(from, newline),
        line: ++line,
        start: dataStart + from,
        end: dataStart + newline + 1,
        complete: true,
      };
      from = newline + 1;
    }
    carry = data.subarray(from);
  }
  if (carry.length > 0)
    yield {
      bytes: carry,
      line: line + 1,
      start: position - carry.length,
      end: position,
      complete: false,
    };
}
