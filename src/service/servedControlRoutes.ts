/**
 * The control routes as the HTTP core serves them: added to the API's pipeline, each with its
 * access rule and its zod body, and handled on a host made of the core's simulation, clock pace and
 * clock moves. Also which paths are control paths (answered with computesim's own error codes).
 */
import type { AddedRoute } from '../api/requestPipeline.js';
import { formatInstant, LAST_INSTANT } from '../core/instant.js';
import type { ClockMover } from './clockMover.js';
import type { ClockPacer } from './clockPacer.js';
import { controlAccess } from './controlAccess.js';
import { parseControlBody } from './controlBody.js';
import type { Answer } from './errorTable.js';
import type { HttpContext } from './httpContext.js';
import type { ServedSimulation } from './servedSimulation.js';
import { CONTROL_PREFIX, CONTROL_ROUTES, type ControlHost } from './simControl.js';

/** What the control routes act on in a core. */
export interface ControlledCore {
  /** Whose keys may control (none: anyone may). */
  readonly keys: ReadonlyMap<string, { readonly kind: string }> | undefined;
  /** The simulation served now. */
  readonly current: () => ServedSimulation;
  /** The clock's pace: its mode, set by `POST /_sim/clock`. */
  readonly pacer: ClockPacer;
  /** The clock's long moves: advances and runs until idle, and stopping them. */
  readonly mover: ClockMover;
  /** Replaces the served simulation (`_sim/reset`); an answer when it cannot. */
  readonly reset: ControlHost['reset'];
}

/** The control routes, as the routes a core adds to the API's pipeline. */
export function servedControlRoutes(
  core: ControlledCore,
): readonly AddedRoute<Answer, HttpContext>[] {
  return CONTROL_ROUTES.map((route) => ({
    method: route.method,
    pattern: route.pattern,
    access: (apiKey) => controlAccess(core.keys, apiKey, 'control the simulation'),
    parse: (body) => parseControlBody(route.body, body),
    handle: (params, body, context) =>
      route.handle({ host: controlHost(core, context), params, body }),
  }));
}

/** Whether `path` (relative to `/api/v2`, with its query) is under the control prefix. */
export function isControlPath(path: string): boolean {
  return (
    path === CONTROL_PREFIX ||
    path.startsWith(`${CONTROL_PREFIX}/`) ||
    path.startsWith(`${CONTROL_PREFIX}?`)
  );
}

function controlHost(core: ControlledCore, context: HttpContext): ControlHost {
  return {
    get sim() {
      return core.current();
    },
    get clockName() {
      return core.pacer.mode.name;
    },
    setClock: (mode) => core.pacer.setMode(mode, core.current()),
    advanceTo: (target: number) =>
      core.mover.move(
        `an advance to ${formatInstant(target)}`,
        (sim, maxTimers) => (sim.advanceToward(target, maxTimers) ? 'done' : 'more'),
        context.gone,
      ),
    runUntilIdle: (within: number) => {
      const deadline = Math.min(LAST_INSTANT, core.current().now() + within);
      return core.mover.move(
        'a run until idle',
        (sim, maxTimers) => {
          const outcome = sim.runTowardIdle(deadline, maxTimers);
          return outcome === 'idle' ? 'done' : outcome;
        },
        context.gone,
      );
    },
    stopMove: () => core.mover.stop(),
    reset: core.reset,
  };
}
