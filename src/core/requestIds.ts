/**
 * Request ids drawn from the seed, keyed by where the run is: the same requests get the same ids
 * on every run of a seed, and a replayed run hands out the ids the original did.
 */
import { RandomSource } from './randomSource.js';

/** Request ids one purpose can hand out at one log position before their keys repeat. */
const REQUEST_IDS_PER_POSITION = 1 << 20;

/** The id of the `count`-th request issued for `purpose` while the log was `position` long. */
export function requestId(seed: number, purpose: string, position: number, count: number): string {
  return RandomSource.derive(
    seed,
    purpose,
    position * REQUEST_IDS_PER_POSITION + (count % REQUEST_IDS_PER_POSITION),
  ).uuid();
}
