/**
 * The options cell threads start with: the process's, without the ones that preload tsx (in every
 * form a process started through tsx has them), every other option kept in order.
 */
import { describe, expect, it } from 'vitest';
import { threadExecArgv } from '../../src/study/threadArgv.js';

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
});
