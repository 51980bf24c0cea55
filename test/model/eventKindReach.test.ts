/**
 * An event kind's meaning stays in a few places: its declaration, the handlers that decide it and
 * the readers that need it by name. No kind is named in more than eight files of `src`, so adding
 * or changing one stays a small change (docs/extending.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DOMAIN_EVENT_TYPES } from '../../src/model/eventMeanings.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const MOST_FILES = 8;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The files among `texts` that name `kind` as a whole word. */
function filesNaming(kind: string, texts: ReadonlyMap<string, string>): string[] {
  const word = new RegExp(`\\b${kind}\\b`);
  return [...texts].filter(([, text]) => word.test(text)).map(([file]) => file);
}

describe('event kinds', () => {
  const texts = new Map(sourceFiles(SRC).map((file) => [file, readFileSync(file, 'utf8')]));

  it(`are each named in at most ${MOST_FILES} files of src`, () => {
    const crowded = DOMAIN_EVENT_TYPES.map((kind) => ({
      kind,
      files: filesNaming(kind, texts).map((file) => file.slice(SRC.length + 1)),
    })).filter(({ files }) => files.length > MOST_FILES);
    expect(crowded).toEqual([]);
  });

  it('are counted as the rule means: a kind named in more files is reported', () => {
    const many = new Map(
      Array.from({ length: MOST_FILES + 1 }, (_, i) => [`f${i}.ts`, `case 'ComputeResized':`]),
    );
    many.set('other.ts', 'ComputeResizedLater');
    expect(filesNaming('ComputeResized', many)).toHaveLength(MOST_FILES + 1);
  });
});
