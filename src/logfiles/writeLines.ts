/**
 * Writing text of any length to an open file, a piece at a time: pieces are gathered into writes of
 * about 1 MiB and never joined into one string (V8 strings stop at 512 MiB).
 */
import { writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';

/** Bytes of text gathered before one write. */
const WRITE_CHUNK = 1 << 20;

/**
 * Writes `pieces` to the open file `fd`, then `after(crc)`, the CRC-32 of the pieces' bytes, in the
 * same last write (a state file's commit line). Returns the bytes written.
 */
export function writeLines(
  fd: number,
  pieces: Iterable<string>,
  after: (crc: number) => string = () => '',
): number {
  let crc = 0;
  let written = 0;
  let pending = '';
  for (const piece of pieces) {
    pending += piece;
    if (pending.length < WRITE_CHUNK) continue;
    const chunk = Buffer.from(pending);
    crc = crc32(chunk, crc);
    written += writeAll(fd, chunk);
    pending = '';
  }
  const last = Buffer.from(pending);
  crc = crc32(last, crc);
  return written + writeAll(fd, Buffer.concat([last, Buffer.from(after(crc))]));
}

/** Writes all of `data` (a write may take only part of it); returns its length. */
export function writeAll(fd: number, data: Buffer): number {
  for (let offset = 0; offset < data.length;)
    offset += writeSync(fd, data, offset, data.length - offset);
  return data.length;
}
