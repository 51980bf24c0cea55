/**
 * Workloads: attaching one (checked and resolved into the log), and each session it generates
 * arriving: the next arrival is scheduled and the session connects like any client, untracked.
 */
import { formatInstant } from '../../core/instant.js';
import { own } from '../../core/own.js';
import { countOf, entryOf } from '../workingMaps.js';
import { err, ok } from '../../core/result.js';
import { reject } from '../../domain/rejection.js';
import { arrivalAt, sessionOf, type Session } from '../../workload/arrivals.js';
import { resolveWorkload, type WorkloadSpec } from '../../workload/workloadSpec.js';
import type { ArriveSession } from '../timers.js';
import type { AttachWorkload, RepeatWorkload } from '../commands.js';
import type { Decision, Handler, ModelContext, Pending } from '../decideContext.js';
import type { SimState } from '../state.js';
import type { SessionDemand } from '../connectionEventTypes.js';
import { openConnection } from './connections.js';

/** Decides attaching a workload: refused when its spec is wrong or names a compute that is not there. */
export const attachWorkload: Handler<AttachWorkload> = (state, command, context) => {
  const resolved = resolveWorkload(command.workload, context.now);
  if (!resolved.ok) return err(reject('invalid_input', `workload: ${resolved.error}`));
  return attach(state, resolved.value, context);
};

/** Decides attaching a workload resolved before (by another run): refused as `attachWorkload` is. */
export const repeatWorkload: Handler<RepeatWorkload> = (state, command, context) =>
  attach(state, command.spec, context);

/** Attaches a resolved workload: refused when it names a compute that is not there or starts late. */
function attach(state: SimState, spec: WorkloadSpec, context: ModelContext): Decision {
  const endpointIds = spec.kind === 'trace' ? spec.endpointIds : [spec.endpointId];
  for (const endpointId of endpointIds)
    if (own(state.endpointOwners, endpointId) === undefined)
      return err(reject('not_found', `workload: compute ${endpointId} not found`));
  const first = spec.kind === 'trace' ? spec.rows[0] : undefined;
  if (first !== undefined && first[0] < context.now)
    return err(
      reject(
        'invalid_input',
        `workload: the trace starts at ${formatInstant(first[0])}, before the simulation's current time ${formatInstant(context.now)}`,
      ),
    );
  const workloadId = `w${countOf(state.workloads) + 1}`;
  const firstAt = arrivalAt(spec, workloadId, 0, null, context.stream);
  return ok<Pending>([{ type: 'WorkloadAttached', workloadId, spec, firstAt }]);
}

/** Decides the arrival of a workload's session (stale unless it is the one due). */
export const arriveSession: Handler<ArriveSession> = (state, command, context) => {
  const workload = entryOf(state.workloads, command.workloadId);
  // A timer armed before the workload's rates changed may come early: the redrawn one is due.
  if (
    workload === undefined ||
    workload.nextIndex !== command.index ||
    workload.nextAt === null ||
    context.now < workload.nextAt
  )
    return ok([]);
  const { id, spec } = workload;
  const session = sessionOf(spec, id, command.index, context.stream);
  const nextAt = arrivalAt(spec, id, command.index + 1, context.now, context.stream);
  const events: Pending = [
    { type: 'SessionArrived', workloadId: id, index: command.index, nextAt },
  ];
  const connected = openConnection(
    state,
    {
      type: 'OpenConnection',
      endpointId: session.endpointId,
      pooled: session.pooled,
      tracked: false,
      session: demandOf(session),
    },
    context,
  );
  if (connected.ok) events.push(...connected.value);
  return ok(events);
};

/** A session's demand in the log's units, with only the fields it has. */
function demandOf(session: Session): SessionDemand {
  const demand: { -readonly [K in keyof SessionDemand]: SessionDemand[K] } = {
    holdMs: session.holdMs,
  };
  if (session.milliCpu > 0) demand.milliCpu = session.milliCpu;
  if (session.memoryGb > 0) demand.memoryMb = Math.round(session.memoryGb * 1024);
  if (session.workingSetGb > 0) demand.cacheMb = Math.round(session.workingSetGb * 1024);
  if (session.tempDiskGb > 0) demand.tempDiskGb = session.tempDiskGb;
  return demand;
}
