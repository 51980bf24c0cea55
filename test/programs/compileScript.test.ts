/**
 * A page's script compiled from TypeScript: one classic script holding the entry and what it
 * imports, defining no globals of its own; sources that do not compile are told by file and line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CompileError, compileScript } from '../../src/programs/compileProgram.js';

/** A folder holding `files` (name → text). */
function sources(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'computesim-script-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('compileScript', () => {
  it('bundles an entry and what it imports into a classic script that leaks no globals', async () => {
    const dir = sources({
      'page.ts':
        "import { twice } from './twice.js';\n" +
        'const answer: number = twice(21);\n' +
        '(globalThis as { told?: number }).told = answer;\n',
      'twice.ts': 'export const twice = (n: number): number => n * 2;\n',
    });
    const script = await compileScript(join(dir, 'page.ts'));
    const context: Record<string, unknown> = {};
    runInNewContext(script, context);
    expect(context).toEqual({ told: 42 });
  });

  it('tells sources that do not compile by file and line', async () => {
    const dir = sources({ 'page.ts': 'const a = 1;\nconst b = ;\n' });
    const compiled = compileScript(join(dir, 'page.ts'));
    await expect(compiled).rejects.toBeInstanceOf(CompileError);
    await expect(compiled).rejects.toThrow(/page\.ts:2: /);
  });
});
