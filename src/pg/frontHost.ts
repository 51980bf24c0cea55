/**
 * What the Postgres front needs of the server it sits beside: the served simulation, a way to run a
 * change on it as a request would (paced clock, durable store), and word when it is replaced.
 */
import type { Simulation } from '../simulation/simulation.js';

/** The parts of a simulation the front reads and drives. */
export type FrontedSimulation = Pick<Simulation, 'state' | 'events$' | 'connect'>;

/** The server side of the front. */
export interface FrontHost {
  /** The simulation served now. */
  readonly sim: FrontedSimulation;
  /** Runs `work` as a request would run a change; throws when it cannot be kept. */
  act<T>(work: (sim: FrontedSimulation) => T): T;
  /** Calls `listener` when the served simulation is replaced; returns the unsubscribe function. */
  onReplaced(listener: () => void): () => void;
  /** Whether virtual time follows the wall clock (then waiting clients make it move). */
  readonly paced: boolean;
  /**
   * For a simulation nobody else moves (in process, time skipping): moves the clock to the next
   * instant work is due, so a waiting client's compute starts; false when nothing is due.
   */
  skipAhead?(): boolean;
}
