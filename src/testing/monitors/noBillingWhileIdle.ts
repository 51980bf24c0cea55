/**
 * Monitor: what a compute is billed for changes only while it runs. CU-hours accrue only while a
 * compute is active, so an autoscaling resize must happen then, not on a compute that is idle,
 * never started, starting or suspending. (It watches resizes; CU-hours themselves are a projection
 * of the same states, see `metricsOf`.)
 */
import { ComputeStates } from './computeStates.js';
import type { Monitor } from './monitor.js';

/** Fires on a resize of a compute that is not steadily active. */
export function noBillingWhileIdle(): Monitor {
  const states = new ComputeStates();
  return {
    name: 'noBillingWhileIdle',
    observe(event) {
      if (event.type === 'ComputeResized') {
        if (!states.isSteadilyActive(event.endpointId))
          return `compute ${event.endpointId} was resized ${event.fromCu}→${event.toCu} CU while ${states.describe(event.endpointId)}`;
      }
      states.follow(event);
      return undefined;
    },
  };
}
