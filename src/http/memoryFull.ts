/**
 * Node's memory check for long clock moves: the V8 heap, or the process, near what it may use. The
 * node adapter hands it to the HTTP core (which runs in any runtime and checks nothing by itself).
 */
import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import type { SliceStop } from '../service/slicedRun.js';

/**
 * The share of the heap limit, and of the memory the machine (or its cgroup) has, past which a long
 * run stops rather than let the process die.
 */
const MEMORY_CEILING = 0.85;

/**
 * A stop when memory is nearly full: the V8 heap near its limit, or the process (whose log lives
 * outside the heap) near what the machine or its cgroup allows.
 */
export function memoryFull(): SliceStop | undefined {
  const heap = getHeapStatistics();
  const rss = process.memoryUsage.rss();
  const constrained = process.constrainedMemory?.() ?? 0;
  const machine = constrained > 0 ? Math.min(constrained, totalmem()) : totalmem();
  const [used, limit, what] =
    heap.used_heap_size >= MEMORY_CEILING * heap.heap_size_limit
      ? [heap.used_heap_size, heap.heap_size_limit, 'heap']
      : rss >= MEMORY_CEILING * machine
        ? [rss, machine, 'memory']
        : [0, 0, ''];
  if (what === '') return undefined;
  return {
    code: 'insufficient_storage',
    message:
      `the server's ${what} is ${Math.round((100 * used) / limit)}% full ` +
      `(limit ${Math.round(limit / 2 ** 20)} MiB)`,
  };
}
