/**
 * What the host itself gives a second thread, measured beside the sweep's speed-ups: a kernel that
 * only updates random words of a 64 MB array (so nearly every access misses the caches) runs alone,
 * then twice at once, each copy on a worker thread. Its speed-up is the ceiling for work whose data
 * does not fit a core's own cache, on this machine, in this run; a compute-bound kernel beside it
 * shows whether the two cores are really two (it should reach 2×).
 */
import { Worker } from 'node:worker_threads';

/** A kernel's speed-up on 2 threads over 1, and the times it came from (best of the rounds). */
export interface KernelScaling {
  /** Seconds for one copy alone. */
  readonly alone: number;
  /** Seconds for two copies at once (the later of the two to finish). */
  readonly together: number;
  /** The work of two copies per second over the work of one: `2 × alone / together`. */
  readonly speedUp: number;
}

/** How both kernels scale on this host. */
export interface HostScaling {
  readonly memoryBound: KernelScaling;
  readonly computeBound: KernelScaling;
}

/** The kernels, as the source of an eval'd worker (no module to resolve, no loader to inherit). */
const KERNELS = `
const { parentPort, workerData } = require('node:worker_threads');
const started = process.hrtime.bigint();
let check = 0;
if (workerData === 'memory') {
  const words = new Uint32Array(1 << 24);
  let position = 1;
  for (let i = 0; i < 40_000_000; i++) {
    position = (Math.imul(position, 1664525) + 1013904223) >>> 0;
    words[position & 0xffffff] += i;
  }
  check = words[12345];
} else {
  for (let i = 0; i < 400_000_000; i++) check = (check + Math.imul(i, 7)) | 0;
}
parentPort.postMessage({ seconds: Number(process.hrtime.bigint() - started) / 1e9, check });
`;

function runKernel(kind: 'memory' | 'compute'): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(KERNELS, { eval: true, workerData: kind, execArgv: [] });
    worker.once('message', (message: { seconds: number }) => {
      resolve(message.seconds);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

async function scaling(kind: 'memory' | 'compute', rounds: number): Promise<KernelScaling> {
  let alone = Infinity;
  let together = Infinity;
  for (let round = 0; round < rounds; round++) {
    alone = Math.min(alone, await runKernel(kind));
    const pair = await Promise.all([runKernel(kind), runKernel(kind)]);
    together = Math.min(together, Math.max(...pair));
  }
  return { alone, together, speedUp: (2 * alone) / together };
}

/** Measures both kernels (best of `rounds` each; a few seconds in all). */
export async function hostScaling(rounds = 2): Promise<HostScaling> {
  return {
    memoryBound: await scaling('memory', rounds),
    computeBound: await scaling('compute', rounds),
  };
}
