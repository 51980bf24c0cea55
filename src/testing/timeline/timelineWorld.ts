/**
 * The world around a client: plays a timeline's steps at their virtual times (and what they leave
 * for later, such as closing a held connection). The harness interleaves it with the client's
 * timers; `playTimeline` runs it alone against a simulation.
 */
import type { ApiResponse } from '../../api/apiResponse.js';
import { parseDuration } from '../../core/duration.js';
import { liveStateOf, type Simulation } from '../../simulation/simulation.js';
import type { SimState } from '../../model/state.js';
import type { Connection } from '../../simulation/connection.js';
import { playStep, type StepHost } from './playStep.js';
import type { Timeline, TimelineStep } from './timeline.js';

interface Due {
  readonly at: number;
  readonly seq: number;
  readonly run: () => void;
}

/** A timeline's steps, due at their times, played on demand. */
export class TimelineWorld implements StepHost {
  readonly sim: Simulation;
  /** The answer of each step's request (undefined: a connection, or a skipped step). */
  readonly answers: (ApiResponse | undefined)[] = [];
  #queue: Due[] = [];
  #seq = 0;
  /**
   * What the steps are played on: this world, but reading the live state. A step only picks ids
   * from it before it acts, so it need not publish an immutable snapshot each step.
   */
  readonly #host: StepHost;

  constructor(sim: Simulation, steps: readonly TimelineStep[], startAt: number = sim.now()) {
    this.sim = sim;
    this.#host = liveHost(this);
    let at = startAt;
    for (const step of steps) {
      at += step.gapMs;
      this.#push(at, () => this.answers.push(playStep(this.#host, step.action)));
    }
  }

  /** Immutable snapshot of the simulation's current state. */
  get state(): SimState {
    return this.sim.state;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request(method: string, path: string, body?: unknown): ApiResponse<any> {
    return this.sim.request(method, path, body);
  }

  connect(endpointId: string): Connection {
    return this.sim.connect(endpointId);
  }

  /** Runs `step` at `when`: `'+30s'` from now. */
  at(when: string, step: () => void): void {
    if (!when.startsWith('+'))
      throw new RangeError(`a world step time must start with +, got ${when}`);
    this.#push(this.sim.now() + parseDuration(when.slice(1)), step);
  }

  /** When the next step is due (undefined: nothing left). */
  get nextDue(): number | undefined {
    return this.#queue[0]?.at;
  }

  /** Runs every step due at or before the simulation's current time, in order. */
  runDue(): void {
    while (this.#queue.length > 0 && (this.#queue[0] as Due).at <= this.sim.now())
      (this.#queue.shift() as Due).run();
  }

  #push(at: number, run: () => void): void {
    const due = { at, seq: this.#seq++, run };
    let index = this.#queue.length;
    while (index > 0 && (this.#queue[index - 1] as Due).at > at) index--;
    this.#queue.splice(index, 0, due);
  }
}

/** `world` as a step host whose `state` is the simulation's live working state. */
function liveHost(world: TimelineWorld): StepHost {
  return {
    get state() {
      return liveStateOf(world.sim);
    },
    request: (method, path, body) => world.request(method, path, body),
    connect: (endpointId) => world.connect(endpointId),
    at: (when, step) => world.at(when, step),
    sim: world.sim,
  };
}

/**
 * Plays a timeline's steps on `sim` from its current time, to the last step and whatever the steps
 * left due after it. The simulation should carry the timeline's seed and operation faults
 * (`timelineSimulation` makes one).
 */
export function playTimeline(sim: Simulation, timeline: Pick<Timeline, 'steps'>): TimelineWorld {
  const world = new TimelineWorld(sim, timeline.steps);
  for (let due = world.nextDue; due !== undefined; due = world.nextDue) {
    if (due > sim.now()) sim.advanceTo(due);
    world.runDue();
  }
  return world;
}
