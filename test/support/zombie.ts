/**
 * Zombies for the lock tests (Linux only): a process that has exited but whose parent has not reaped
 * it yet, so its id is still taken, `kill -0` still succeeds on it, and `/proc/PID/stat` says `Z`.
 * The parent is `sleep`, which never reaps a child; kill it (`release`) to let the zombie go.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pollUntil } from './pollUntil.js';

/** Whether this system shows processes' states in `/proc` (Linux). */
export const HAS_PROC_STATES = process.platform === 'linux';

/** The state letter of process `pid` (`R`, `S`, `Z`, …) as `/proc` says, or `gone`. */
export function processState(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? 'gone';
  } catch {
    return 'gone';
  }
}

/** The start time of process `pid` as a lock records it (the boot's id, then clock ticks). */
export function startTimeOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  return `${boot}:${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
}

/** Waits until process `pid` is a zombie (not reaped by its parent). */
export async function untilZombie(pid: number): Promise<void> {
  await pollUntil(
    () => processState(pid) === 'Z',
    () => `process ${pid}: ${processState(pid)}`,
  );
}

/** A parent that never reaps, and the children it started. */
export interface NonReapingParent {
  readonly parent: ChildProcess;
  /** The process id of the command it started. */
  readonly pid: number;
  /** What the command wrote on stdout so far (its id's line first). */
  stdout(): string;
  /** Kills the parent, so that its zombie is reaped by the system. */
  release(): void;
}

/**
 * Runs `command args…` as the child of a process that never reaps it (`sh`, which says the
 * child's id on stdout and becomes `sleep`): once the child exits, by itself or killed, it stays
 * a zombie until `release`. Resolves once the parent is `sleep` (before, the shell may reap).
 */
export async function underNonReapingParent(
  command: string,
  args: readonly string[],
  cwd?: string,
): Promise<NonReapingParent> {
  const parent = spawn('sh', ['-c', '"$@" & echo $!; exec sleep 600', 'sh', command, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  parent.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const release = () => {
    parent.kill('SIGKILL');
  };
  const comm = () => {
    try {
      return readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim();
    } catch {
      return 'gone';
    }
  };
  try {
    await pollUntil(
      () => (out.includes('\n') && comm() === 'sleep') || parent.exitCode !== null,
      () => ({ out, parent: comm() }),
    );
  } catch (error) {
    release();
    throw error;
  }
  const pid = Number(out.slice(0, out.indexOf('\n')));
  if (!Number.isSafeInteger(pid) || pid <= 0) {
    release();
    throw new Error(`no process id from the parent: ${JSON.stringify(out)}`);
  }
  return { parent, pid, stdout: () => out, release };
}

/** A zombie: `sleep` run under a parent that never reaps it, and killed. */
export async function zombie(): Promise<NonReapingParent> {
  const made = await underNonReapingParent('sleep', ['600']);
  try {
    process.kill(made.pid, 'SIGKILL');
    await untilZombie(made.pid);
  } catch (error) {
    made.release();
    throw error;
  }
  return made;
}
