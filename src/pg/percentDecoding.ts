/**
 * The parts of a connection string decoded as the real service's proxy decodes them: each `%xx` of
 * two hex digits is a byte, and a `%` not followed by two is kept as it is (never an error); a role
 * or database name must then be UTF-8, with Rust's words for the first bad sequence when it is not.
 */

/** The bytes of `text` with its `%xx` escapes decoded (a malformed escape is kept literally). */
export function percentDecodedBytes(text: string): Buffer {
  const source = Buffer.from(text, 'utf8');
  const out = Buffer.allocUnsafe(source.length);
  let length = 0;
  for (let at = 0; at < source.length; at++) {
    const byte = source[at] as number;
    const high = byte === 0x25 ? hexValue(source[at + 1]) : undefined;
    const low = high === undefined ? undefined : hexValue(source[at + 2]);
    if (high !== undefined && low !== undefined) {
      out[length++] = (high << 4) | low;
      at += 2;
    } else out[length++] = byte;
  }
  return out.subarray(0, length);
}

/**
 * `text` decoded as UTF-8 text, or why its bytes are not UTF-8 (as Rust's `Utf8Error` says it:
 * `invalid utf-8 sequence of 1 bytes from index 0`).
 */
export function percentDecodedText(
  text: string,
): { readonly text: string } | { readonly invalid: string } {
  const bytes = percentDecodedBytes(text);
  const problem = utf8Problem(bytes);
  return problem === undefined ? { text: bytes.toString('utf8') } : { invalid: problem };
}

function hexValue(byte: number | undefined): number | undefined {
  if (byte === undefined) return undefined;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x41 + 10;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x61 + 10;
  return undefined;
}

/** The first invalid UTF-8 sequence of `bytes`, described as Rust describes it, if any. */
function utf8Problem(bytes: Uint8Array): string | undefined {
  const continuation = (byte: number) => byte >= 0x80 && byte <= 0xbf;
  for (let at = 0; at < bytes.length;) {
    const first = bytes[at] as number;
    const start = at;
    const invalid = (length: number) =>
      `invalid utf-8 sequence of ${length} bytes from index ${start}`;
    const incomplete = `incomplete utf-8 byte sequence from index ${start}`;
    if (first < 0x80) {
      at += 1;
      continue;
    }
    const width = first >= 0xc2 && first <= 0xdf ? 2 : first >= 0xe0 && first <= 0xef ? 3 : 4;
    if (first < 0xc2 || first > 0xf4) return invalid(1);
    const second = bytes[at + 1];
    if (second === undefined) return incomplete;
    const secondFits =
      width === 2
        ? continuation(second)
        : width === 3
          ? first === 0xe0
            ? second >= 0xa0 && second <= 0xbf
            : first === 0xed
              ? second >= 0x80 && second <= 0x9f
              : continuation(second)
          : first === 0xf0
            ? second >= 0x90 && second <= 0xbf
            : first === 0xf4
              ? second >= 0x80 && second <= 0x8f
              : continuation(second);
    if (!secondFits) return invalid(1);
    for (let i = 2; i < width; i++) {
      const next = bytes[at + i];
      if (next === undefined) return incomplete;
      if (!continuation(next)) return invalid(i);
    }
    at += width;
  }
  return undefined;
}
