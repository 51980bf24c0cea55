/**
 * Timelines for people: a readable list of steps with their virtual times, and the same timeline as a
 * scenario file to paste into `scenarios/` (the world alone, to watch or draw). fast-check prints a
 * timeline as its steps and its literal.
 */
import fc from 'fast-check';
import { formatDuration } from '../../core/duration.js';
import type { Timeline, TimelineAction } from './timeline.js';
import { timelineLiteral } from './timelineLiteral.js';

/** The timeline as lines: `+1m30s  restart compute #0`, after a header with the seed and faults. */
export function formatTimeline(timeline: Timeline): string {
  const faults =
    Object.keys(timeline.faults).length === 0 ? 'none' : JSON.stringify(timeline.faults);
  const lines = [
    `timeline: seed ${timeline.seed}, ${timeline.steps.length} step${timeline.steps.length === 1 ? '' : 's'}, faults ${faults}`,
  ];
  let at = 0;
  for (const step of timeline.steps) {
    at += step.gapMs;
    lines.push(`  +${formatDuration(at).padEnd(10)} ${describeAction(step.action)}`);
  }
  return lines.join('\n');
}

/** One action in words. Objects are named by position among those that exist at the time. */
export function describeAction(action: TimelineAction): string {
  switch (action.kind) {
    case 'createProject':
      return 'create a project';
    case 'createBranch':
      return `create a branch${action.withCompute ? ' with a compute' : ''} in project #${action.project}`;
    case 'createReplica':
      return `create a read replica on branch #${action.branch}`;
    case 'createPrimary':
      return `create a read_write compute on branch #${action.branch}`;
    case 'resize':
      return `resize compute #${action.compute} to ${action.minCu}–${action.maxCu} CU`;
    case 'setSuspendTimeout':
      return `set compute #${action.compute}'s suspend timeout to ${action.seconds} s`;
    case 'connect':
      return `connect to compute #${action.compute} for ${formatDuration(action.holdMs)}`;
    case 'dropConnections':
      return `drop the connections of compute #${action.compute}`;
    case 'deleteCompute':
      return `delete compute #${action.compute}`;
    case 'deleteBranch':
      return `delete branch #${action.branch}`;
    case 'createRole':
      return `create role role${action.role} on branch #${action.branch}`;
    case 'createDatabase':
      return `create database db${action.database} on branch #${action.branch}`;
    default:
      return `${action.kind} compute #${action.compute}`;
  }
}

/**
 * The timeline as a scenario module (`defineScenario`) replaying its steps with `playStep`. Operation
 * faults go into the profile; request faults and connection drops are injected at a client's edge by
 * the harness, so the scenario lists them in a comment.
 */
export function timelineScenario(timeline: Timeline, name = 'counterexample'): string {
  const { operations, ...edgeFaults } = timeline.faults;
  const profile =
    operations === undefined ? '' : `\n  profile: { faults: ${JSON.stringify(operations)} },`;
  const edge =
    Object.keys(edgeFaults).length === 0
      ? ''
      : `\n// Faults at the client's edge (runClient's \`faults\`): ${JSON.stringify(edgeFaults)}`;
  let at = 0;
  const steps = timeline.steps.map((step) => {
    at += step.gapMs;
    return `    s.at('+${formatDuration(at)}', () => playStep(s, ${JSON.stringify(step.action)})); // ${describeAction(step.action)}`;
  });
  return [
    `import { defineScenario } from 'computesim';`,
    `import { playStep } from 'computesim/testing';${edge}`,
    ``,
    `export default defineScenario({`,
    `  name: '${name}',`,
    `  seed: ${timeline.seed},${profile}`,
    `  script(s) {`,
    ...steps,
    `  },`,
    `});`,
  ].join('\n');
}

/**
 * `timeline` with a string form for fast-check's reports: the readable steps, then the timeline as
 * a literal to paste into a test and hand to the property's body again (a replay). The value
 * itself is unchanged (the method is not enumerable).
 */
export function attachTimelineString<T extends Timeline>(timeline: T): T {
  Object.defineProperty(timeline, fc.toStringMethod, {
    value: () =>
      `\n${formatTimeline(timeline)}\n\nas a literal, to replay it:\n${timelineLiteral(timeline)}\n`,
    enumerable: false,
  });
  return timeline;
}
