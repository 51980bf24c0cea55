/**
 * The cell threads' program, compiled from the sources: plain JavaScript that imports no
 * TypeScript, with the study compiled in; each file keeps its own import.meta.url; a study that
 * uses more of import.meta is left out and loads through tsx. Sweeps through it give the same
 * results as in this thread.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sweep, sweepStudyFile } from '../../src/entries/studies.js';
import { fileUrl } from '../../src/definitions/loadDefinition.js';
import { cellProgram } from '../../src/study/cellProgram.js';
import resolving from '../fixtures/resolvingStudy.js';
import sibling from '../fixtures/siblingStudy.js';

const options = { seeds: [3, 4] } as const;

/** Every module specifier the program imports, statically or not. */
function imported(code: string): string[] {
  const statics = code.matchAll(/^(?:import|export)\b[^;'"]*?"([^"]+)";$/gm);
  const dynamics = code.matchAll(/\bimport\("([^"]+)"\)/g);
  return [...statics, ...dynamics].map((match) => match[1]!);
}

describe('the cell threads’ program', () => {
  it('is one JavaScript module with the study compiled in, importing packages but no TypeScript', async () => {
    const code = readFileSync(await cellProgram([fileUrl('test/fixtures/tinyStudy.ts')]), 'utf8');
    expect(code).toContain('three projects, six hours');
    const specifiers = imported(code);
    expect(specifiers).toContain('node:worker_threads');
    expect(specifiers.some((s) => /^file:.*\/node_modules\/zod\//.test(s))).toBe(true);
    for (const specifier of specifiers)
      expect(specifier).toMatch(/^node:|^file:.*\/node_modules\/.*\.[cm]?js$/);
  }, 30_000);

  it('gives each compiled file its own import.meta.url', async () => {
    const file = 'test/fixtures/siblingStudy.ts';
    const code = readFileSync(await cellProgram([fileUrl(file)]), 'utf8');
    expect(code).toContain('projects from beside');
    const two = await sweepStudyFile(file, { ...options, workers: 2 });
    expect(two.points[0]?.params).toEqual({ suspendTimeout: 60, projects: 2 });
    expect(JSON.stringify(two)).toBe(JSON.stringify(sweep(sibling, options)));
  }, 60_000);

  it('leaves out a study that uses import.meta.resolve; it loads through tsx, with the same results', async () => {
    const file = 'test/fixtures/resolvingStudy.ts';
    const code = readFileSync(await cellProgram([fileUrl(file)]), 'utf8');
    expect(code).not.toContain('projects resolved');
    const two = await sweepStudyFile(file, { ...options, workers: 2 });
    expect(JSON.stringify(two)).toBe(JSON.stringify(sweep(resolving, options)));
  }, 60_000);
});
