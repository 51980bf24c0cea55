/**
 * Strict inputs: a misspelled key at any depth of a profile, a workload, a study or a fault profile
 * is refused, and the message names the path to the object that holds it and the key itself.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE, Simulation } from '../../src/index.js';
import { resolveProfile } from '../../src/entries/model.js';
import { defineStudy } from '../../src/entries/studies.js';
import { faultProfileProblem, withFaults } from '../../src/testing/index.js';
import { studyProblem } from '../../src/study/study.js';
import { resolveWorkload } from '../../src/workload/workloadSpec.js';

type Path = readonly (string | number)[];

const spec = { failureRate: 0.1, maxRetries: 2, retryDelayMs: 1_000 };

const PROFILE = {
  plan: 'paid',
  regionId: 'aws-eu-west-1',
  latency: { start_compute: [500, 900], apply_config: [10, 20] },
  faults: { start_compute: { ...spec, delayRate: 0.5, delayMs: [1, 2] }, wake_compute: spec },
  limits: { tempDiskGb: 10 },
  releases: { epochMs: 0, first: 1, intervalMs: 1_000 },
  availabilityChecks: { intervalMs: 1_000, backoff: 2, maxIntervalMs: 10_000 },
  autoscaling: { sampleMs: 1_000, cpuGoal: 0.8 },
  coldCache: { warmupMs: 1_000, penaltyMs: 10 },
};

const WORKLOADS = [
  {
    kind: 'poisson',
    endpointId: 'ep-1',
    after: '1m',
    for: '1h',
    rates: { weekday: Array.from({ length: 24 }, () => 2), weekend: Array(24).fill(1) },
    session: {
      duration: { dist: 'lognormal', median: '2m', sigma: 0.5 },
      cpu: { dist: 'uniform', min: 0.1, max: 0.5 },
      memoryGb: 1,
      pooled: true,
    },
  },
  {
    kind: 'cron',
    endpointId: 'ep-1',
    every: '1h',
    session: { duration: { dist: 'fixed', value: '1m' } },
  },
  { kind: 'worker', endpointId: 'ep-1', connections: 2, reconnectEvery: '30m' },
  {
    kind: 'burst',
    endpointId: 'ep-1',
    count: 5,
    within: '1m',
    session: { duration: { dist: 'exponential', mean: '30s' } },
  },
  {
    kind: 'trace',
    rows: [
      { at: '2026-01-05T00:00:00Z', endpointId: 'ep-1', duration: '1m' },
      { at: '2026-01-05T00:01:00Z', endpointId: 'ep-2', duration: 5_000, cpu: 0.2 },
    ],
  },
] as const;

const STUDY = {
  name: 'strict',
  description: 'a study with every part',
  seed: 1,
  start: '2026-01-05T00:00:00Z',
  duration: '1d',
  pricePerCuHour: 0.16,
  setup: () => undefined,
  profileFor: () => ({}),
  configurations: [
    { name: 'base', params: { free: { form: 1 } } },
    { name: 'tuned', profile: PROFILE },
  ],
  grid: { size: [1, 2] },
  paramLabels: { size: { unit: 'CU', values: { '2': 'large' } } },
};

const FAULTS = {
  operations: { start_compute: spec },
  requests: {
    locked: { rate: 0.1, burst: [1, 2] },
    rateLimited: { rate: 0.1, retryAfterSeconds: 1 },
    routes: { 'POST /projects': { locked: { rate: 0.5 } } },
  },
  connections: { dropsPerHour: 1 },
};

/**
 * Study params are the study's own (not checked); the keys of a grid, of param labels and their
 * named values, and of routes are names, not fields.
 */
const FREE_FORM = (path: Path) => path.at(-1) === 'params';
const NAMED = (path: Path) =>
  ['grid', 'paramLabels', 'values', 'routes'].includes(String(path.at(-1)));

/** The paths of every plain object inside `value` (itself included) whose keys a schema fixes. */
function objectPaths(value: unknown, path: Path = []): Path[] {
  if (FREE_FORM(path)) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => objectPaths(v, [...path, i]));
  if (typeof value !== 'object' || value === null) return [];
  const inner = Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...path, k]));
  return NAMED(path) ? inner : [path, ...inner];
}

/** A deep copy of plain data (functions kept as they are), with `key: 1` added at `path`. */
function withKey(value: unknown, path: Path, key: string): unknown {
  const copy = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(copy)
      : typeof v === 'object' && v !== null
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]))
        : v;
  const root = copy(value);
  let target = root as Record<string | number, unknown>;
  for (const step of path) target = target[step] as Record<string | number, unknown>;
  target[key] = 1;
  return root;
}

/** `root.a.b[2]`, as the messages write paths. */
function pathText(root: string, path: Path): string {
  const text = path
    .map((k) =>
      typeof k === 'number'
        ? `[${k}]`
        : /^[A-Za-z_$][\w$]*$/.test(k)
          ? `.${k}`
          : `[${JSON.stringify(k)}]`,
    )
    .join('');
  return (root + text).replace(/^\./, '');
}

/** Keys no schema knows: a misspelling with a digit, or a word with an underscore and a number. */
const strayKey = fc.oneof(
  fc.constantFrom('minCu', 'maxCu', 'sampleMS', 'cpugoal', 'durationMs', 'Kind', 'rate_', 'dist2'),
  fc.stringMatching(/^[a-z][a-zA-Z]{0,8}_[0-9]{1,3}$/),
);

function expectRefused(problem: string | undefined, where: string, key: string): void {
  expect(problem).toBeDefined();
  const message = problem as string;
  expect(message).not.toContain('\n');
  const prefix = where === '' ? '' : `${where}: `;
  expect(message.startsWith(`${prefix}unknown `)).toBe(true);
  expect(message).toContain(JSON.stringify(key));
}

describe('a misspelled key at any depth is refused, naming its path', () => {
  it('in profile overrides', () => {
    expect(resolveProfile(PROFILE).ok).toBe(true);
    fc.assert(
      fc.property(fc.constantFrom(...objectPaths(PROFILE)), strayKey, (path, key) => {
        const result = resolveProfile(withKey(PROFILE, path, key));
        expectRefused(result.ok ? undefined : result.error, pathText('profile', path), key);
      }),
    );
  });

  it('in workloads of every kind', () => {
    for (const workload of WORKLOADS) expect(resolveWorkload(workload, 0).ok).toBe(true);
    const cases = WORKLOADS.flatMap((w) => objectPaths(w).map((path) => [w, path] as const));
    fc.assert(
      fc.property(fc.constantFrom(...cases), strayKey, ([workload, path], key) => {
        const result = resolveWorkload(withKey(workload, path, key) as never, 0);
        expectRefused(result.ok ? undefined : result.error, pathText(workload.kind, path), key);
      }),
    );
  });

  it('in study definitions, their configurations and their profiles', () => {
    expect(studyProblem(STUDY)).toBeUndefined();
    fc.assert(
      fc.property(fc.constantFrom(...objectPaths(STUDY)), strayKey, (path, key) => {
        const study = withKey(STUDY, path, key);
        expectRefused(studyProblem(study), pathText('', path), key);
        expect(() => defineStudy(study as never)).toThrow(TypeError);
      }),
    );
  });

  it('in fault profiles of the testing toolkit', () => {
    expect(faultProfileProblem(FAULTS as never)).toBeUndefined();
    fc.assert(
      fc.property(fc.constantFrom(...objectPaths(FAULTS)), strayKey, (path, key) => {
        const faults = withKey(FAULTS, path, key);
        expectRefused(faultProfileProblem(faults as never), pathText('faults', path), key);
        expect(() => withFaults({}, faults as never)).toThrow(RangeError);
      }),
    );
  });
});

describe('autoscaling overrides', () => {
  it('refuses an unknown key inside autoscaling with its path and what is known', () => {
    expect(resolveProfile({ autoscaling: { minCu: 0.25 } })).toEqual({
      ok: false,
      error:
        'profile.autoscaling: unknown field "minCu" (known: sampleMs, scaleDownAfterMs, cpuGoal, memoryGoal)',
    });
    expect(
      () =>
        new Simulation({
          profile: { autoscaling: { cpuGoal: 0.8, scaledownAfterMs: 1 } as never },
        }),
    ).toThrow(
      new RangeError(
        'profile.autoscaling: unknown field "scaledownAfterMs" (known: sampleMs, scaleDownAfterMs, cpuGoal, memoryGoal)',
      ),
    );
  });

  it('names the field of a bad value', () => {
    const result = resolveProfile({ autoscaling: { cpuGoal: 1.5 } });
    expect(result).toEqual({ ok: false, error: 'profile.autoscaling.cpuGoal must be in (0, 1]' });
  });

  it('merges a partial override onto the defaults, key by key', () => {
    const result = resolveProfile({ autoscaling: { cpuGoal: 0.5 } });
    expect(result.ok && result.value.autoscaling).toEqual({
      ...DEFAULT_PROFILE.autoscaling,
      cpuGoal: 0.5,
    });
    expect(
      new Simulation({ profile: { autoscaling: { sampleMs: 1_000 } } }).profile.autoscaling,
    ).toEqual({ ...DEFAULT_PROFILE.autoscaling, sampleMs: 1_000 });
  });

  it('is refused in a study configuration, naming the configuration by its place', () => {
    expect(() =>
      defineStudy({
        ...STUDY,
        configurations: [{ name: 'a', profile: { autoscaling: { maxCu: 2 } as never } }],
      }),
    ).toThrow(/^defineStudy: configurations\[0\]\.profile\.autoscaling: unknown field "maxCu"/);
  });
});

describe('the empty override', () => {
  it('is the default profile, resolved without parsing', () => {
    const a = resolveProfile({});
    const b = resolveProfile();
    expect(a.ok && b.ok && a.value === b.value && a.value === DEFAULT_PROFILE).toBe(true);
    expect(Object.isFrozen(DEFAULT_PROFILE.autoscaling)).toBe(true);
  });
});
