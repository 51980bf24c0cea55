/**
 * YAML kept as JSON between processes: parsed once per version of the file, read back as the very
 * same document with one-byte strings, parsed again when the file changes, and never kept when JSON
 * cannot give the document back.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { PUBLIC_SCHEMA_FILE } from '../../src/schema/publicSchema.js';
import { cachedYaml } from '../../src/schema/yamlCache.js';

/** `parse` counting its calls. */
function counted(): { parse: (text: string) => unknown; calls: () => number } {
  let calls = 0;
  return {
    parse: (text) => {
      calls++;
      return load(text);
    },
    calls: () => calls,
  };
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
    // ASCII, so a process that reads it (and parses nothing) gets one-byte strings.
    const [json] = readdirSync(folder).filter((name) => name.endsWith('.json'));
    expect(readFileSync(join(folder, json as string), 'latin1')).not.toMatch(/[^\x20-\x7e]/);
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
    expect(kept).toStrictEqual(load(readFileSync(file, 'utf8')));
  });
});
