/**
 * What the cases are compared with: the bystander alone, with no hostile client, and the RSS the
 * victim's database instance gives back when its compute suspends.
 */
import { residentBytes } from '../support/residentMemory.js';
import { mb, sleep } from './common.js';
import { SETTLE_MS, type CaseOutcome } from './runCase.js';
import { operationsSettled, unlocked, type Target } from './targets.js';

/** A reference: nothing but the bystander for 10 s. */
export async function idle(): Promise<CaseOutcome> {
  await sleep(10_000);
  return { outcome: 'none (the bystander alone)', clientOk: true };
}

/**
 * Not a case: the victim's compute suspended, so its database instance closes; what RSS that gives
 * back says whether what a case left was held by the database instance or by the front.
 */
export async function victimClosed(target: Target): Promise<void> {
  const { server, victim } = target;
  const before = residentBytes(server.pid);
  const suspended = await unlocked(
    server,
    'POST',
    `/projects/${victim.id}/endpoints/${victim.endpointId}/suspend`,
  );
  await operationsSettled(server, victim.id);
  await sleep(SETTLE_MS);
  console.log(
    `\n[${target.name}] the victim's compute suspended (${suspended.status}), its database closed: RSS ${mb(before)} → ${mb(residentBytes(server.pid))} ${SETTLE_MS / 1000} s later`,
  );
}
