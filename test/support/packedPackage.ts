/**
 * The package as `npm pack` makes it, for tests that install it into an empty project: built from
 * this checkout's sources into a folder of its own (so a test never reads a `dist/` that another
 * test or `npm run build` is writing), packed there, and the commands such a test runs against npm
 * and the project, as child processes that a time limit stops.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_ENTRIES, pageScript } from '../../src/programs/pageScript.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The environment without what `npm run` and vitest set, so the inner npm and vitest start afresh. */
export function freshEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_|vitest)/i.test(name)),
  );
}

/** The version of `name` this checkout has installed (the one npm's cache holds). */
export function installedVersion(name: string): string {
  const manifest = join(root, 'node_modules', name, 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/**
 * Builds the package as `npm run build` does (`tsc -p tsconfig.build.json`, then each page's script
 * bundled beside the modules), in a folder of its own with the package's other `files`, and packs
 * it into `destination`: the tarball's path.
 */
export async function packTarball(destination: string): Promise<string> {
  const staging = mkdtempSync(join(tmpdir(), 'computesim-pack-'));
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      files: string[];
    };
    try {
      execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json', '--outDir', join(staging, 'dist')], {
        cwd: root,
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (error) {
      const { stdout } = error as { stdout?: string };
      throw new Error(`tsc -p tsconfig.build.json failed:\n${stdout ?? String(error)}`, {
        cause: error,
      });
    }
    for (const entry of PAGE_ENTRIES) {
      const file = join(staging, 'dist', `${entry}.js`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, await pageScript(entry));
    }
    // What npm packs besides `files`: the manifest, and the readme and licence at the root.
    const always = readdirSync(root).filter((file) =>
      /^(package\.json|readme(\..*)?|licen[cs]e(\..*)?)$/i.test(file),
    );
    for (const file of [...manifest.files.filter((file) => file !== 'dist'), ...always])
      if (existsSync(join(root, file)))
        cpSync(join(root, file), join(staging, file), { recursive: true });
    const packed = JSON.parse(
      execFileSync(
        'npm',
        ['pack', '--ignore-scripts', '--json', '--pack-destination', destination],
        {
          cwd: staging,
          encoding: 'utf8',
          env: freshEnv(),
        },
      ),
    ) as [{ filename: string }];
    return join(destination, packed[0].filename);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** What a command did: its exit code (null when a signal ended it) and its output. */
export interface CommandRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** It was still running after its time limit, and was killed with its children. */
  readonly timedOut: boolean;
}

/**
 * Runs `command` in `cwd` with `freshEnv()`, as a process group of its own, killed whole (with the
 * processes it started) if it runs longer than `timeoutMs`.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
  env: NodeJS.ProcessEnv = {},
): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...freshEnv(), ...env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}
