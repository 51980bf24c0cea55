/**
 * Monitor: a compute that is not running is never billed. CU-hours accrue only while a compute is
 * active, so anything that changes what it is billed for (an autoscaling resize) must happen then.
 */
import { ComputeStates } from './computeStates.js';
import type { Monitor } from './monitor.js';

/** Fires on a resize of a compute that is idle or was never started. */
export function noBillingWhileIdle(): Monitor {
  const states = new ComputeStates();
  return {
    name: 'noBillingWhileIdle',
    observe(event) {
      if (event.type === 'ComputeResized') {
        const state = states.of(event.endpointId);
        if (state !== 'active')
          return `compute ${event.endpointId} was resized ${event.fromCu}→${event.toCu} CU while ${state}`;
      }
      states.follow(event);
      return undefined;
    },
  };
}
