/**
 * The resident memory (RSS) of another process, read from Linux's /proc/PID/status, sampled at a
 * fixed interval while a benchmark runs: where it started, its peak, where it ended.
 */
import { readFileSync } from 'node:fs';

/** The resident bytes of process `pid` now (`VmRSS`). */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kB = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  if (kB === undefined) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kB) * 1024;
}

/** What sampling found, in bytes. */
export interface ResidentMemory {
  readonly start: number;
  readonly peak: number;
  readonly end: number;
  readonly samples: number;
}

/** Samples the RSS of `pid` every `everyMs` from now; `stop` takes a last sample and sums up. */
export function sampleResidentMemory(pid: number, everyMs = 1_000): { stop(): ResidentMemory } {
  const start = residentBytes(pid);
  let peak = start;
  let samples = 1;
  const take = () => {
    const now = residentBytes(pid);
    peak = Math.max(peak, now);
    samples++;
    return now;
  };
  const timer = setInterval(take, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      const end = take();
      return { start, peak, end, samples };
    },
  };
}
