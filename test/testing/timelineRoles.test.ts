/**
 * Timeline actions on roles and databases: played against a simulation they create what they say,
 * run into the same rules as any client (409 for a taken name, 423 while a change is applied), and
 * read back in words.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { describeAction, playTimeline } from '../../src/testing/index.js';

describe('role and database timeline actions', () => {
  it('create a role and a database owned by the branch first role; a repeat is a 409', () => {
    const sim = new Simulation({ seed: 8 });
    const world = playTimeline(sim, {
      steps: [
        { gapMs: 0, action: { kind: 'createProject' } },
        { gapMs: 60_000, action: { kind: 'createRole', branch: 0, role: 3 } },
        { gapMs: 60_000, action: { kind: 'createDatabase', branch: 0, database: 1 } },
        { gapMs: 60_000, action: { kind: 'createRole', branch: 0, role: 3 } },
      ],
    });
    expect(world.answers.map((a) => a?.status)).toEqual([201, 201, 201, 409]);
    const [project] = Object.values(sim.state.projects);
    const branch = project!.branches[project!.defaultBranchId]!;
    expect(branch.roles.map((r) => r.name)).toEqual(['neondb_owner', 'role3']);
    expect(branch.databases.map((d) => [d.name, d.ownerName])).toEqual([
      ['neondb', 'neondb_owner'],
      ['db1', 'neondb_owner'],
    ]);
  });

  it('meet a 423 when they come while the previous change is still applied', () => {
    const sim = new Simulation({ seed: 8 });
    const world = playTimeline(sim, {
      steps: [
        { gapMs: 0, action: { kind: 'createProject' } },
        { gapMs: 60_000, action: { kind: 'createRole', branch: 0, role: 1 } },
        { gapMs: 0, action: { kind: 'createDatabase', branch: 0, database: 1 } },
      ],
    });
    expect(world.answers.map((a) => a?.status)).toEqual([201, 201, 423]);
  });

  it('are skipped when no branch exists, and read in words', () => {
    const world = playTimeline(new Simulation(), {
      steps: [{ gapMs: 0, action: { kind: 'createRole', branch: 0, role: 0 } }],
    });
    expect(world.answers).toEqual([undefined]);
    expect(describeAction({ kind: 'createRole', branch: 1, role: 2 })).toBe(
      'create role role2 on branch #1',
    );
    expect(describeAction({ kind: 'createDatabase', branch: 0, database: 4 })).toBe(
      'create database db4 on branch #0',
    );
  });
});
