/**
 * A tiny synthetic Decider for engine tests: counters, a `Tick` timer that can re-arm itself
 * (foreground or background) and a `Guarded` timer that is stale unless state still expects it.
 */
import type { Decider } from '../../src/engine/index.js';
import { err, ok } from '../../src/engine/index.js';

export interface TickState {
  readonly ticks: number;
  readonly expected: Readonly<Record<string, number>>;
  readonly fired: readonly string[];
}

export type TickCommand =
  | {
      readonly type: 'Arm';
      readonly name: string;
      readonly every: number;
      readonly background: boolean;
      readonly times: number;
    }
  | {
      readonly type: 'Tick';
      readonly name: string;
      readonly every: number;
      readonly background: boolean;
      readonly left: number;
    }
  | { readonly type: 'Expect'; readonly name: string; readonly at: number }
  | { readonly type: 'Guarded'; readonly name: string; readonly at: number }
  | { readonly type: 'Refuse' };

export type TickEvent =
  | {
      readonly type: 'Armed';
      readonly at: number;
      readonly seq: number;
      readonly name: string;
      readonly every: number;
      readonly background: boolean;
      readonly left: number;
    }
  | {
      readonly type: 'Ticked';
      readonly at: number;
      readonly seq: number;
      readonly name: string;
      readonly every: number;
      readonly background: boolean;
      readonly left: number;
    }
  | {
      readonly type: 'Expected';
      readonly at: number;
      readonly seq: number;
      readonly name: string;
      readonly due: number;
    }
  | {
      readonly type: 'GuardFired';
      readonly at: number;
      readonly seq: number;
      readonly name: string;
    };

type Timer = Extract<TickCommand, { type: 'Tick' | 'Guarded' }>;

/** The synthetic model; `times: Infinity` re-arms forever. */
export const tickModel: Decider<TickState, TickCommand, TickEvent, Timer, string> = {
  initialState: () => ({ ticks: 0, expected: {}, fired: [] }),
  decide(state, command) {
    switch (command.type) {
      case 'Arm':
        return ok([
          {
            type: 'Armed',
            name: command.name,
            every: command.every,
            background: command.background,
            left: command.times,
          },
        ]);
      case 'Tick':
        return ok([
          {
            type: 'Ticked',
            name: command.name,
            every: command.every,
            background: command.background,
            left: command.left - 1,
          },
        ]);
      case 'Expect':
        return ok([{ type: 'Expected', name: command.name, due: command.at }]);
      case 'Guarded':
        return state.expected[command.name] === command.at
          ? ok([{ type: 'GuardFired', name: command.name }])
          : ok([]);
      case 'Refuse':
        return err('refused');
    }
  },
  evolve(draft, event, touch) {
    switch (event.type) {
      case 'Ticked':
        draft.ticks++;
        draft.fired.push(`${event.name}@${event.at}`);
        touch?.('fired');
        break;
      case 'Expected':
        draft.expected[event.name] = event.due;
        touch?.('expected');
        break;
      case 'GuardFired':
        draft.fired.push(`guard:${event.name}@${event.at}`);
        touch?.('fired');
        break;
      case 'Armed':
        break;
    }
  },
  armTimers(event, _state, arm) {
    switch (event.type) {
      case 'Armed':
      case 'Ticked':
        if (event.left > 0) {
          const { name, every, background, left } = event;
          arm(event.at + every, { type: 'Tick', name, every, background, left }, background);
        }
        return;
      case 'Expected':
        arm(event.due, { type: 'Guarded', name: event.name, at: event.due });
        return;
      default:
        return;
    }
  },
  commandForTimer: (timer) => timer,
};
