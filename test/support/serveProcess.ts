/**
 * `computesim serve` in a process of its own, for tests that kill it, restart it, or run two at
 * once: start it, call it, stop it, and read what it said.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { callJson } from './callJson.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A JSON body as tests read it (like `fetch`'s `json()`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonBody = Record<string, any>;

/** The key every served process accepts. */
export const SERVE_KEY = 'serve-process-key';

/** A running (or exited) serve process. */
export interface ServeProcess {
  readonly child: ChildProcess;
  /** The API's base URL (`http://127.0.0.1:PORT/api/v2`). */
  readonly base: string;
  /** What it wrote on stdout so far. */
  stdout(): string;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** One request with the key; the body parsed as JSON when there is one. */
  call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: JsonBody | undefined }>;
  /** Kills it with SIGKILL (no chance to clean up) and waits for it to be gone. */
  kill(): Promise<void>;
  /** Stops it with SIGTERM and waits for its exit code. */
  stop(): Promise<number | null>;
}

const running = new Set<ChildProcess>();

/** Kills every serve process still running (for `afterEach`). */
export function killAllServeProcesses(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/** Runs `computesim serve ARGS` and waits for it to exit; resolves to its code and output. */
export function runServeToExit(
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnServe(args);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Starts `computesim serve --port 0 --api-key SERVE_KEY ARGS` (node run with `nodeArgs` first) and
 * resolves once it announces its URL; rejects with its output if it exits first.
 */
export function startServe(
  args: readonly string[],
  nodeArgs: readonly string[] = [],
): Promise<ServeProcess> {
  const child = spawnServe(args, nodeArgs);
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const base = /serving (http:\/\/\S+)/.exec(out)?.[1];
      if (base === undefined) return;
      resolve({
        child,
        base,
        stdout: () => out,
        stderr: () => err,
        call: async (method, path, body) => {
          const answer = await callJson(fetch, base, SERVE_KEY, method, path, body);
          return { status: answer.status, body: answer.body as JsonBody | undefined };
        },
        kill: async () => {
          child.kill('SIGKILL');
          await exited;
        },
        stop: async () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
    void exited.then((code) =>
      reject(new Error(`serve exited with ${code} before serving: ${out}${err}`)),
    );
  });
}

function spawnServe(args: readonly string[], nodeArgs: readonly string[] = []): ChildProcess {
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs,
      '--import',
      'tsx',
      'src/cli/run.ts',
      'serve',
      '--port',
      '0',
      '--api-key',
      SERVE_KEY,
      ...args,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  return child;
}
