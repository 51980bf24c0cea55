/**
 * Invariant monitors over the event log, online and offline.
 */
export { defaultMonitors } from './defaultMonitors.js';
export { defineMonitor, type Monitor } from './monitor.js';
export { monotonicTimestamps } from './monotonicTimestamps.js';
export { noBillingWhileIdle } from './noBillingWhileIdle.js';
export { noConnectionOnIdleCompute } from './noConnectionOnIdleCompute.js';
export { oneReadWritePerBranch } from './oneReadWritePerBranch.js';
export { operationsEventuallyTerminal } from './operationsEventuallyTerminal.js';
export {
  assertLogClean,
  checkLog,
  formatViolation,
  MonitorViolationError,
  watchMonitors,
  type MonitorOptions,
  type MonitorViolation,
  type MonitorWatch,
} from './watchMonitors.js';
