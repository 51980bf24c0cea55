/**
 * YAML parsed with one-byte keys: the same document as js-yaml's `load`, wide characters and all,
 * and the public schema's keys one-byte strings (V8 shares a two-byte key with every equal literal,
 * and each API body naming it was then written through the slow two-byte paths).
 */
import { serialize } from 'node:v8';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { loadOneByteYaml } from '../../src/schema/oneByteYaml.js';
import { publicSchemaDocument } from '../../src/schema/publicSchema.js';

/** Whether V8 holds `text` as a one-byte string (its serializer tags the two kinds apart). */
function oneByte(text: string): boolean {
  const tag = serialize(text)[2];
  if (tag !== 0x22 && tag !== 0x63) throw new Error(`unexpected serializer tag ${tag}`);
  return tag === 0x22;
}

/** Every key of `value`, and every string in it with no character past U+00FF, that is two-byte. */
function twoByteStrings(value: unknown, found: string[] = [], seen = new Set<object>()): string[] {
  if (typeof value === 'string') {
    if (!/[\u0100-\uffff]/.test(value) && !oneByte(value)) found.push(value);
    return found;
  }
  if (value === null || typeof value !== 'object' || seen.has(value)) return found;
  seen.add(value);
  for (const [key, inner] of Object.entries(value)) {
    twoByteStrings(key, found, seen);
    twoByteStrings(inner, found, seen);
  }
  return found;
}

const WIDE_YAML = [
  'plain: a dash — and quotes ‘here’',
  'double: "em—dash \\u2014 and an emoji 😀"',
  "single: 'it’s'",
  'block: |',
  '  line one — wide',
  '  line two',
  '“key”: 1',
  'anchored: &shared { note: “shared” }',
  'alias: *shared',
  'list: [one, “two”, three]',
  'ascii_after_wide: region_id',
].join('\n');

describe('loadOneByteYaml', () => {
  it('parses the same document as load, wide characters in values and keys included', () => {
    expect(loadOneByteYaml(WIDE_YAML)).toStrictEqual(load(WIDE_YAML));
  });

  it('parses a text without wide characters as load does', () => {
    expect(loadOneByteYaml('a: 1\nb: [x, y]\n')).toStrictEqual({ a: 1, b: ['x', 'y'] });
  });

  it('gives one-byte keys and strings for a text with wide characters', () => {
    expect(twoByteStrings(loadOneByteYaml(WIDE_YAML))).toStrictEqual([]);
  });

  it('reads the public schema with one-byte keys', () => {
    expect(twoByteStrings(publicSchemaDocument())).toStrictEqual([]);
  });
});
