/**
 * The options cell threads start with: the process's, without the ones that preload tsx (in every
 * form a process started through tsx has them), every other option kept in order; the V8 and
 * process-wide options Node refuses in a worker are left out, and still hold in the thread.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { threadExecArgv } from '../../src/programs/threadArgv.js';

describe('threadExecArgv', () => {
  it('drops tsx as the tsx command, node --import tsx and a loader path preload it', () => {
    expect(
      threadExecArgv([
        '--require',
        '/app/node_modules/tsx/dist/preflight.cjs',
        '--import',
        'file:///app/node_modules/tsx/dist/loader.mjs',
      ]),
    ).toEqual([]);
    expect(threadExecArgv(['--expose-gc', '--import', 'tsx'])).toEqual(['--expose-gc']);
    expect(threadExecArgv(['--import=tsx/esm', '--loader=tsx', '-r', 'tsx/cjs'])).toEqual([]);
    expect(threadExecArgv(['--experimental-loader', 'C:\\app\\node_modules\\tsx\\x.mjs'])).toEqual(
      [],
    );
  });

  it('keeps every other option, preloads of other modules with their module, in order', () => {
    const argv = [
      '--enable-source-maps',
      '--require',
      'dotenv/config',
      '--import=./otel.mjs',
      '--import',
      'tsx',
      '--conditions',
      'development',
    ];
    expect(threadExecArgv(argv)).toEqual([
      '--enable-source-maps',
      '--require',
      'dotenv/config',
      '--import=./otel.mjs',
      '--conditions',
      'development',
    ]);
    expect(threadExecArgv(['--import=tsx-like'])).toEqual(['--import=tsx-like']);
  });

  it('starts a thread of a process run through tsx with V8 options: no tsx, V8 options still in force', () => {
    const dir = mkdtempSync(join(tmpdir(), 'computesim-argv-'));
    const script = join(dir, 'start.mts');
    const module = new URL('../../src/programs/threadArgv.ts', import.meta.url).href;
    const program =
      "import { parentPort } from 'node:worker_threads';" +
      'parentPort.postMessage({ argv: process.execArgv, gc: typeof gc });';
    writeFileSync(
      script,
      `import { startThread } from ${JSON.stringify(module)};\n` +
        `const thread = startThread(new URL('data:text/javascript,' + ${JSON.stringify(encodeURIComponent(program))}));\n` +
        `thread.once('message', (seen) => { console.log(JSON.stringify({ main: process.execArgv, ...seen })); void thread.terminate(); });\n`,
    );
    const output = execFileSync(
      'node',
      ['--expose-gc', '--stack-trace-limit=50', '--import', 'tsx', script],
      { encoding: 'utf8' },
    );
    const seen = JSON.parse(output) as { main: string[]; argv: string[]; gc: string };
    expect(seen.main).toEqual(expect.arrayContaining(['--expose-gc', '--import', 'tsx']));
    expect(seen.argv).toEqual([]);
    expect(seen.gc).toBe('function');
  }, 30_000);
});
