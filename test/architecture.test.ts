/**
 * The import rules of docs/architecture.md, as `npm run lint` checks them: they hold on src/, and
 * they fail, naming the rule, on a throwaway tree with an upward import (static or dynamic), a
 * cycle, an import from a folder the table does not know, the simulation importing the server, and
 * a static path from the root entry to node:worker_threads.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type IForbiddenRuleType } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
interface Config {
  forbidden: IForbiddenRuleType[];
  options: ICruiseOptions;
}
const configs = {
  layers: createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as Config,
  static: createRequire(import.meta.url)(join(root, '.dependency-cruiser-static.cjs')) as Config,
};

/** The rules of `which` config broken in `baseDir`'s `src/` (each once), as lint reports them. */
async function brokenRules(
  baseDir: string,
  which: keyof typeof configs = 'layers',
): Promise<string[]> {
  const config = configs[which];
  const result = await cruise(['src'], {
    ...config.options,
    tsConfig: { fileName: join(baseDir, 'tsconfig.json') },
    baseDir,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
  } as ICruiseOptions);
  const output = result.output as { summary: { violations: { rule: { name: string } }[] } };
  return [...new Set(output.summary.violations.map((violation) => violation.rule.name))].sort();
}

/** A throwaway tree: `files` maps paths under src/ to their text. */
function tree(files: Record<string, string>): string {
  const base = mkdtempSync(join(tmpdir(), 'computesim-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(base, 'src', path)), { recursive: true });
    writeFileSync(join(base, 'src', path), text);
  }
  writeFileSync(join(base, 'tsconfig.json'), readFileSync(join(root, 'tsconfig.json')));
  return base;
}

describe('the import rules', () => {
  it('hold on src/', async () => {
    expect(await brokenRules(root)).toEqual([]);
    expect(await brokenRules(root, 'static')).toEqual([]);
  }, 60_000);

  it('fail on an upward dynamic import, naming the layer', async () => {
    const base = tree({
      'core/clock.ts':
        "export const clock = async () => (await import('../model/state.js')).state;\n",
      'model/state.ts': 'export const state = 1;\n',
    });
    expect(await brokenRules(base)).toEqual(['layer-core']);
  });

  it('fail when the simulation imports the server or the schema', async () => {
    const base = tree({
      'simulation/simulation.ts':
        "import { core } from '../service/httpCore.js';\nimport { schema } from '../schema/publicSchema.js';\nexport const sim = [core, schema];\n",
      'service/httpCore.ts': 'export const core = 1;\n',
      'schema/publicSchema.ts': 'export const schema = 1;\n',
    });
    expect(await brokenRules(base)).toEqual(['core-without-server', 'layer-simulation']);
  });

  it('fail on an upward import, naming the layer', async () => {
    const base = tree({
      'core/clock.ts': "import { state } from '../model/state.js';\nexport const clock = state;\n",
      'model/state.ts': 'export const state = 1;\n',
    });
    expect(await brokenRules(base)).toEqual(['layer-core']);
  });

  it('fail on a cycle', async () => {
    const base = tree({
      'model/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'model/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
    });
    expect(await brokenRules(base)).toEqual(['no-cycle']);
  });

  it('fail on a folder the table does not know', async () => {
    const base = tree({
      'gadgets/gadget.ts': "import { one } from '../core/one.js';\nexport const gadget = one;\n",
      'core/one.ts': 'export const one = 1;\n',
    });
    expect(await brokenRules(base)).toEqual(['known-layer']);
  });

  it('fail on a static path from the root entry to node:worker_threads', async () => {
    const base = tree({
      'index.ts': "export { sweep } from './study/sweep.js';\n",
      'study/sweep.ts':
        "import { Worker } from 'node:worker_threads';\nexport const sweep = () => Worker;\n",
    });
    expect(await brokenRules(base, 'static')).toEqual(['root-entry-without-worker-threads']);
  });

  it('let the root entry load node:worker_threads on demand', async () => {
    const base = tree({
      'index.ts': "export { sweep } from './study/sweep.js';\n",
      'study/sweep.ts': "export const sweep = () => import('./threads.js');\n",
      'study/threads.ts':
        "import { Worker } from 'node:worker_threads';\nexport const threads = Worker;\n",
    });
    expect(await brokenRules(base, 'static')).toEqual([]);
  });
});
