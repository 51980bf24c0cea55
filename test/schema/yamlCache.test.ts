/**
 * YAML kept as JSON between processes: parsed once per version of the file, read back as the very
 * same document with one-byte strings, parsed again when the file changes, and never kept when JSON
 * cannot give the document back.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { loadOneByteYaml } from '../../src/schema/oneByteYaml.js';
import { PUBLIC_SCHEMA_FILE } from '../../src/schema/publicSchema.js';
import { cachedYaml } from '../../src/schema/yamlCache.js';

/** `parse` counting its calls. */
function counted(): { parse: (text: string) => unknown; calls: () => number } {
  let calls = 0;
  return {
    parse: (text) => {
      calls++;
      return loadOneByteYaml(text);
    },
    calls: () => calls,
  };
}

/** Keys and strings with no character past U+00FF that V8 holds as two-byte strings. */
function twoByte(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (!/[\u0100-\uffff]/.test(value) && serialize(value)[2] !== 0x22) found.push(value);
  } else if (value !== null && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) twoByte(inner, twoByte(key, found));
  return found;
}

function scratch(): { folder: string; file: string } {
  const folder = mkdtempSync(join(tmpdir(), 'computesim-yaml-'));
  return { folder, file: join(folder, 'doc.yaml') };
}

const YAML = 'title: a dash — and “quotes”\nregion_id: aws-eu\nlist: [one, 2, true, null]\n';

describe('cachedYaml', () => {
  it('parses a file once, then reads the same document back from its JSON, strings one-byte', () => {
    const { folder, file } = scratch();
    writeFileSync(file, YAML);
    const { parse, calls } = counted();
    const parsed = cachedYaml(file, parse, folder);
    const kept = cachedYaml(file, parse, folder);
    expect(calls()).toBe(1);
    expect(kept).toStrictEqual(load(YAML));
    expect(kept).toStrictEqual(parsed);
    expect(twoByte(kept)).toEqual([]);
  });

  it('parses the file again once it changes', () => {
    const { folder, file } = scratch();
    const { parse, calls } = counted();
    writeFileSync(file, 'a: 1\n');
    cachedYaml(file, parse, folder);
    writeFileSync(file, 'a: 22\n');
    expect(cachedYaml(file, parse, folder)).toStrictEqual({ a: 22 });
    expect(calls()).toBe(2);
  });

  it('keeps no document JSON cannot give back: a date stays a date', () => {
    const { folder, file } = scratch();
    writeFileSync(file, 'when: 2026-01-05T00:00:00Z\n');
    const { parse, calls } = counted();
    cachedYaml(file, parse, folder);
    const again = cachedYaml(file, parse, folder) as { when: unknown };
    expect(again.when).toBeInstanceOf(Date);
    expect(calls()).toBe(2);
  });

  it('reads the public schema back the same as its YAML parses', () => {
    const { folder } = scratch();
    const file = createRequire(import.meta.url).resolve(PUBLIC_SCHEMA_FILE);
    const { parse, calls } = counted();
    cachedYaml(file, parse, folder);
    const kept = cachedYaml(file, parse, folder);
    expect(calls()).toBe(1);
    expect(kept).toStrictEqual(loadOneByteYaml(readFileSync(file, 'utf8')));
    expect(twoByte(kept)).toEqual([]);
  });
});
