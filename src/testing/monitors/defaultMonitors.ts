/**
 * The built-in invariant monitors, fresh for one run.
 */
import type { Monitor } from './monitor.js';
import { monotonicTimestamps } from './monotonicTimestamps.js';
import { noBillingWhileIdle } from './noBillingWhileIdle.js';
import { noConnectionOnIdleCompute } from './noConnectionOnIdleCompute.js';
import { oneReadWritePerBranch } from './oneReadWritePerBranch.js';
import { operationsEventuallyTerminal } from './operationsEventuallyTerminal.js';

/** Every built-in monitor, each with its default options. */
export function defaultMonitors(): Monitor[] {
  return [
    monotonicTimestamps(),
    oneReadWritePerBranch(),
    operationsEventuallyTerminal(),
    noBillingWhileIdle(),
    noConnectionOnIdleCompute(),
  ];
}
