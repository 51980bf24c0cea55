/**
 * The autoscaling target (fidelity.md): the smallest allowed size that keeps CPU and memory demand
 * within their goals and the working set in the cache, clamped to the compute's range. Pure; the model decides when to apply it.
 */
import { ALLOWED_CU, RAM_BYTES_PER_CU } from './computeSize.js';
import type { AutoscalingProfile } from './profile.js';

const MB_PER_CU = RAM_BYTES_PER_CU / 1024 ** 2;
/** The Local File Cache is 80% of RAM (size table). */
const LFC_SHARE = 0.8;

/** True when a compute with this range autoscales (a real range within the autoscaling limit). */
export function autoscales(minCu: number, maxCu: number, autoscalingMaxCu: number): boolean {
  return minCu < maxCu && maxCu <= autoscalingMaxCu;
}

/**
 * The size autoscaling aims for, within `[minCu, maxCu]`, under what a compute's open sessions
 * demand: `milliCpu` thousandths of a vCPU (1 CU = 1 vCPU), `memoryMb` of memory (1 CU = 4 GB) and
 * `cacheMb` of data they keep touching, which should fit the Local File Cache (80% of RAM).
 */
export function autoscaleTarget(
  milliCpu: number,
  memoryMb: number,
  cacheMb: number,
  minCu: number,
  maxCu: number,
  goals: Pick<AutoscalingProfile, 'cpuGoal' | 'memoryGoal'>,
): number {
  const cpuNeed = milliCpu / 1000 / goals.cpuGoal;
  const memoryNeed = memoryMb / (MB_PER_CU * goals.memoryGoal);
  const cacheNeed = cacheMb / (MB_PER_CU * LFC_SHARE);
  const need = Math.max(cpuNeed, memoryNeed, cacheNeed, minCu);
  for (const cu of ALLOWED_CU) if (cu >= need - 1e-9) return Math.min(cu, maxCu);
  return maxCu;
}

/** The first sample instant strictly after `t` on the `sampleMs` grid. */
export function nextSample(t: number, sampleMs: number): number {
  return (Math.floor(t / sampleMs) + 1) * sampleMs;
}
