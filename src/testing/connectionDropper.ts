/**
 * Drops open connections at random virtual times (a Poisson process of `dropsPerHour`), for the
 * harness to interleave with its clock: each drop picks one compute that has open connections.
 */
import { RandomSource } from '../core/randomSource.js';
import { entryOf, idsOf } from '../model/workingMaps.js';
import { liveStateOf, type Simulation } from '../simulation/simulation.js';
import { HOUR_MS } from '../core/duration.js';

/** Advances a simulation while dropping connections on the way. */
export class ConnectionDropper {
  readonly #sim: Simulation;
  readonly #random: RandomSource;
  readonly #meanGapMs: number;
  /** When the next drop is due; drawn from the time of the first `advanceTo`. */
  #nextAt: number | undefined;
  /** Drops made so far, as (virtual time, compute) pairs. */
  readonly drops: { readonly at: number; readonly endpointId: string }[] = [];

  constructor(sim: Simulation, dropsPerHour: number) {
    this.#sim = sim;
    this.#random = RandomSource.derive(sim.seed, 'connection-drops', 0);
    this.#meanGapMs = dropsPerHour > 0 ? HOUR_MS / dropsPerHour : Infinity;
  }

  /** Runs the simulation up to `instant` (epoch ms), dropping connections when one is due. */
  advanceTo(instant: number): void {
    this.#nextAt ??= this.#sim.now() + this.#gap();
    while (this.#nextAt <= instant) {
      // Drops that fell due while others moved the clock happen now.
      if (this.#nextAt > this.#sim.now()) this.#sim.advanceTo(this.#nextAt);
      this.#dropOne();
      this.#nextAt = Math.max(this.#nextAt, this.#sim.now()) + this.#gap();
    }
    if (instant > this.#sim.now()) this.#sim.advanceTo(instant);
  }

  #dropOne(): void {
    // Only ids are read, before anything changes: the live state serves, no snapshot is published.
    const state = liveStateOf(this.#sim);
    const withOpen = [...idsOf(state.liveConnections)]
      .filter((endpointId) =>
        [...idsOf(entryOf(state.liveConnections, endpointId) ?? {})].some(
          (id) => entryOf(state.connections, id)?.status === 'open',
        ),
      )
      .sort();
    if (withOpen.length === 0) return;
    const endpointId = this.#random.pick(withOpen);
    this.#sim.dropConnections(endpointId);
    this.drops.push({ at: this.#sim.now(), endpointId });
  }

  #gap(): number {
    if (!Number.isFinite(this.#meanGapMs)) return Infinity;
    return Math.max(1, Math.round(this.#random.exponential(this.#meanGapMs)));
  }
}
