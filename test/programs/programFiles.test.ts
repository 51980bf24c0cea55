/**
 * Kept programs: named by their content, written once however many processes keep the same one,
 * and the programs and unfinished writes a day older than the newest removed as it is written.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keepProgram } from '../../src/programs/programFiles.js';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'computesim-programs-'));
}

/** Sets `path`'s times `hours` back. */
function age(path: string, hours: number): void {
  const when = new Date(Date.now() - hours * 3_600_000);
  utimesSync(path, when, when);
}

describe('keepProgram', () => {
  it('keeps a program once under a name drawn from its content', async () => {
    const dir = folder();
    const one = await keepProgram('export const a = 1;\n', dir);
    const again = await keepProgram('export const a = 1;\n', dir);
    const other = await keepProgram('export const a = 2;\n', dir);
    expect(again.href).toBe(one.href);
    expect(other.href).not.toBe(one.href);
    expect(readFileSync(fileURLToPath(one), 'utf8')).toBe('export const a = 1;\n');
    expect(readdirSync(dir).sort()).toEqual(
      [fileURLToPath(one), fileURLToPath(other)].map((p) => p.slice(dir.length + 1)).sort(),
    );
  });

  it('removes programs and unfinished writes a day older than the one it writes, nothing else', async () => {
    const dir = folder();
    const stale = join(dir, 'cells-0-1.mjs');
    const recent = join(dir, 'cells-1-1.mjs');
    const unfinished = join(dir, 'writing-abc123');
    const other = join(dir, 'yaml-1.json');
    for (const path of [stale, recent, other]) writeFileSync(path, 'x');
    mkdirSync(unfinished);
    age(stale, 30);
    age(unfinished, 30);
    age(other, 30);
    age(recent, 2);
    await keepProgram('export const b = 1;\n', dir);
    expect([stale, unfinished].map(existsSync)).toEqual([false, false]);
    expect([recent, other].map(existsSync)).toEqual([true, true]);
  });
});
