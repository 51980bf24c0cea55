/**
 * The state file's lock: it holds the file whatever name reaches it (a symbolic link, a hard
 * link), and follows the file a reset renames into place; a live holder keeps it; a holder that is
 * gone, or whose process id now belongs to another process (a restarted container's pid 1, for
 * one), or that has exited but is not reaped yet (a zombie), loses it; and two servers taking over
 * the same stale lock at once never both get it.
 */
import { spawn } from 'node:child_process';
import {
  linkSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StateFile } from '../../src/http/stateFile.js';
import { StateFileInUseError, StateFileLock } from '../../src/http/stateFileLock.js';
import { Simulation } from '../../src/index.js';
import { HAS_PROC_STATES, processState, startTimeOf, zombie } from '../support/zombie.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const newFile = () => join(mkdtempSync(join(tmpdir(), 'computesim-lock-')), 'state.jsonl');

/** Writes a lock as a server `pid` would have, `ageMs` ago. */
function lockOf(file: string, pid: number, started?: string): void {
  const owner = { pid, host: hostname(), since: '2026-01-01T00:00:00.000Z', started };
  writeFileSync(`${file}.lock`, `${JSON.stringify(owner)}\n`);
}

describe('the state file lock', () => {
  it('is refused to a second taker in the same process, and free again once released', () => {
    const file = newFile();
    const lock = StateFileLock.acquire(file);
    expect(() => StateFileLock.acquire(file)).toThrow(StateFileInUseError);
    lock.release();
    StateFileLock.acquire(file).release();
  });

  it('is the same lock whatever name reaches the file: a symbolic link, a hard link', () => {
    const file = newFile();
    writeFileSync(file, '');
    const elsewhere = mkdtempSync(join(tmpdir(), 'computesim-lock-names-'));
    const symbolic = join(elsewhere, 'symbolic.jsonl');
    const hard = join(elsewhere, 'hard.jsonl');
    symlinkSync(file, symbolic);
    linkSync(file, hard);
    for (const [first, second] of [
      [file, symbolic],
      [symbolic, hard],
      [hard, file],
    ] as const) {
      const lock = StateFileLock.acquire(first);
      expect(() => StateFileLock.acquire(second), `${first} then ${second}`).toThrow(
        StateFileInUseError,
      );
      lock.release();
    }
    StateFileLock.acquire(hard).release();
  });

  it('follows the file a reset puts in its place, and writes through a symbolic link', () => {
    const file = newFile();
    const symbolic = join(mkdtempSync(join(tmpdir(), 'computesim-lock-names-')), 'symbolic.jsonl');
    symlinkSync(file, symbolic); // dangling: the file is made where it points
    const opened = StateFile.open(symbolic);
    const sim = new Simulation({ seed: 4 });
    sim.request('POST', '/projects', { project: { name: 'p' } });
    opened.rewrite(sim); // a new file renamed over the old one: another inode
    expect(lstatSync(symbolic).isSymbolicLink()).toBe(true);
    const hard = join(dirname(symbolic), 'hard.jsonl');
    linkSync(file, hard);
    expect(() => StateFile.open(hard)).toThrow(StateFileInUseError);
    opened.close();
    const reopened = StateFile.open(hard);
    expect(reopened.simulation?.state).toEqual(sim.state);
    reopened.close();
  });

  it('still locks by name where no identity lock can be made, and says why', async () => {
    const file = newFile();
    const blocker = join(dirname(file), 'a-file');
    writeFileSync(blocker, '');
    // A process of its own whose temporary folder cannot be made (under a file), holding the file
    // (set once tsx has its own folder).
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `process.env.TMPDIR = ${JSON.stringify(join(blocker, 'tmp'))};
         const { StateFile } = await import(${JSON.stringify(join(root, 'src/http/stateFile.ts'))});
         console.log(StateFile.open(${JSON.stringify(file)}).recovery.unlockedIdentity); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const said = await new Promise<string>((resolve) => {
        holder.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
        holder.once('exit', (code) => resolve(`exited with ${code}`));
      });
      expect(said).toMatch(/^cannot lock it in .*a-file\/tmp\/computesim-locks \(ENOTDIR\)$/);
      expect(() => StateFileLock.acquire(file)).toThrow(/is in use by process \d+/);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it("takes over a lock naming this process's id that this process does not hold", () => {
    const file = newFile();
    lockOf(file, process.pid);
    const lock = StateFileLock.acquire(file);
    expect(lock.replaced?.pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock whose process id is alive but belongs to a process started later', () => {
    const file = newFile();
    lockOf(file, process.ppid, 'another-boot:1');
    const lock = StateFileLock.acquire(file);
    expect(lock.replaced?.pid).toBe(process.ppid);
    lock.release();
  });

  it.runIf(HAS_PROC_STATES)(
    'takes over a lock whose process has exited but is not reaped yet (a zombie)',
    async () => {
      const dead = await zombie();
      try {
        const file = newFile();
        // Its id is taken and answers `kill -0`, and it is the process the lock names (same start
        // time): only its state says it holds nothing.
        expect(() => process.kill(dead.pid, 0)).not.toThrow();
        lockOf(file, dead.pid, startTimeOf(dead.pid));
        const lock = StateFileLock.acquire(file);
        expect(lock.replaced?.pid).toBe(dead.pid);
        expect(processState(dead.pid)).toBe('Z'); // still a zombie: not taken over as gone
        lock.release();
      } finally {
        dead.release();
      }
    },
  );

  it('is refused while the live process that took it holds it', async () => {
    const file = newFile();
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `const { StateFileLock } = await import(${JSON.stringify(join(root, 'src/http/stateFileLock.ts'))});
         StateFileLock.acquire(${JSON.stringify(file)}); console.log('held'); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise((resolve) => holder.stdout?.once('data', resolve));
      expect(() => StateFileLock.acquire(file)).toThrow(/is in use by process \d+/);
      expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(holder.pid);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('goes to exactly one of two servers taking over the same stale lock at once', async () => {
    const script = (file: string) =>
      `const { StateFileLock } = await import(${JSON.stringify(join(root, 'src/http/stateFileLock.ts'))});
       try { StateFileLock.acquire(${JSON.stringify(file)}); console.log('got'); } catch { console.log('refused'); }
       setTimeout(() => {}, 20000);`; // holds on until killed: a taker that exited would be stale
    for (let trial = 0; trial < 6; trial++) {
      const file = newFile();
      lockOf(file, 999_999_999);
      const children = [1, 2].map(() =>
        spawn(process.execPath, ['--import', 'tsx', '-e', script(file)], {
          stdio: ['ignore', 'pipe', 'inherit'],
        }),
      );
      const outcomes = await Promise.all(
        children.map(
          (child) =>
            new Promise<string>((resolve) =>
              child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
            ),
        ),
      );
      for (const child of children) child.kill('SIGKILL');
      expect(
        outcomes.filter((outcome) => outcome === 'got'),
        `trial ${trial}`,
      ).toHaveLength(1);
    }
  }, 60_000);
});
