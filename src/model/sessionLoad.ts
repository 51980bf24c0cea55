/**
 * The demand workload sessions put on a compute while their connections are open (CPU in thousandths
 * of a vCPU, memory and working set in MB: integers, so sums come back to exactly zero).
 */
import type { Draft } from 'immer';
import type { SessionDemand } from './connectionEventTypes.js';
import type { ConnectionState, EndpointState } from './state.js';

/** Copies the demand fields of a session onto its connection record (only those it has). */
export function addDemand(
  fields: { -readonly [K in keyof SessionDemand]: SessionDemand[K] },
  event: SessionDemand,
): void {
  if (event.holdMs !== undefined) fields.holdMs = event.holdMs;
  if (event.milliCpu !== undefined) fields.milliCpu = event.milliCpu;
  if (event.memoryMb !== undefined) fields.memoryMb = event.memoryMb;
  if (event.cacheMb !== undefined) fields.cacheMb = event.cacheMb;
  if (event.tempDiskGb !== undefined) fields.tempDiskGb = event.tempDiskGb;
}

/** Adds (`sign` 1) or removes (`-1`) an open connection's demand from its compute. */
export function applyLoad(
  endpoint: Draft<EndpointState>,
  connection: Draft<ConnectionState>,
  sign: 1 | -1,
  at: number,
): void {
  const cpu = connection.milliCpu ?? 0;
  const memory = connection.memoryMb ?? 0;
  const cache = connection.cacheMb ?? 0;
  if (cpu === 0 && memory === 0 && cache === 0) return;
  endpoint.loadMilliCpu += sign * cpu;
  endpoint.loadMemoryMb += sign * memory;
  endpoint.loadCacheMb += sign * cache;
  endpoint.loadChangedAt = at;
}

/** True when a session's biggest statement needs more temporary disk than a compute has (53100). */
export function outgrowsTempDisk(
  connection: Pick<ConnectionState, 'tempDiskGb'>,
  limits: { readonly tempDiskGb: number },
): boolean {
  return (connection.tempDiskGb ?? 0) > limits.tempDiskGb;
}
