/**
 * UUIDs as four 32-bit words and back: how the log codes operation ids, and how the archive of ended
 * operations keeps them without a string each.
 */

/** Packs a lower-case canonical UUID into four words; false for any other string. */
export function packUuid(text: string, out: Uint32Array): boolean {
  if (
    text.length !== 36 ||
    text.charCodeAt(8) !== 45 ||
    text.charCodeAt(13) !== 45 ||
    text.charCodeAt(18) !== 45 ||
    text.charCodeAt(23) !== 45
  )
    return false;
  const a = hexWord(text, 0, 8);
  const b1 = hexWord(text, 9, 4);
  const b2 = hexWord(text, 14, 4);
  const c1 = hexWord(text, 19, 4);
  const c2 = hexWord(text, 24, 4);
  const d = hexWord(text, 28, 8);
  if (a < 0 || b1 < 0 || b2 < 0 || c1 < 0 || c2 < 0 || d < 0) return false;
  out[0] = a;
  out[1] = b1 * 0x10000 + b2;
  out[2] = c1 * 0x10000 + c2;
  out[3] = d;
  return true;
}

/** Nibble of each char code below 128 (lower-case hex digits), -1 for any other. */
const NIBBLES = Int8Array.from({ length: 128 }, (_, code) =>
  code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : -1,
);

/** The value of `count` (≤ 8) hex digits of `text` from `from`; -1 when one is not lower-case hex. */
function hexWord(text: string, from: number, count: number): number {
  let word = 0;
  for (let i = from; i < from + count; i++) {
    const code = text.charCodeAt(i);
    const nibble = code < 128 ? (NIBBLES[code] as number) : -1;
    if (nibble < 0) return -1;
    word = word * 16 + nibble;
  }
  return word;
}

/** The text of a UUID's four words (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`). */
export function uuidText(a: number, b: number, c: number, d: number): string {
  return `${hex8(a)}-${hex4(b >>> 16)}-${hex4(b & 0xffff)}-${hex4(c >>> 16)}-${hex4(c & 0xffff)}${hex8(d)}`;
}

/** `00` to `ff`: a word is written a byte at a time, not a digit at a time. */
const HEX_BYTES: readonly string[] = Array.from({ length: 256 }, (_, n) =>
  n.toString(16).padStart(2, '0'),
);

function hex8(word: number): string {
  return hex4(word >>> 16) + hex4(word & 0xffff);
}

function hex4(half: number): string {
  return (HEX_BYTES[half >>> 8] as string) + (HEX_BYTES[half & 0xff] as string);
}
