import type { Draft } from 'immer';
import { describe, expect, it } from 'vitest';
import { DirtyPaths, OWN_FIELDS, type DirtyNode } from '../../src/engine/dirtyPaths.js';
import { workingState } from '../../src/model/operationStore.js';
import type { EndpointState, ProjectState, SimState } from '../../src/model/state.js';
import { StateWriter } from '../../src/model/stateWriter.js';

function plainOf(node: DirtyNode | undefined): unknown {
  if (node === undefined) return undefined;
  return Object.fromEntries([...node].map(([key, child]) => [key, plainOf(child)]));
}

const project = (id: string): ProjectState => ({
  id,
  name: id,
  regionId: 'aws-us-east-2',
  defaultBranchId: 'br-1',
  plan: 'free',
  pgVersion: 17,
  historyRetentionSeconds: 86_400,
  detached: false,
  lastUsedAt: 0,
  createdAt: 0,
  updatedAt: 0,
  lastSortKey: 0,
  branches: {},
  endpoints: {},
  operations: {},
  pendingOperations: {},
});

function given() {
  const state = workingState();
  const dirty = new DirtyPaths();
  const write = new StateWriter().bind(state as Draft<SimState>, dirty.touch);
  write.putProject('p', project('p'));
  dirty.take();
  return { state, dirty, write };
}

describe('StateWriter', () => {
  it('records the path of each object it hands out or replaces, and no other', () => {
    const { dirty, write } = given();
    write.project('p').lastUsedAt = 5;
    write.put('p', 'endpoints', 'ep-1', { id: 'ep-1' } as EndpointState);
    write.putRoot('endpointOwners', 'ep-1', 'p');
    write.addLive('ep-1', 'c-1');
    expect(plainOf(dirty.take())).toEqual({
      projects: { p: { [OWN_FIELDS]: {}, endpoints: { 'ep-1': {} } } },
      endpointOwners: { 'ep-1': {} },
      liveConnections: { 'ep-1': { 'c-1': {} } },
    });
    write.entry('p', 'endpoints', 'ep-1').minCu = 1;
    write.removeLive('ep-1', 'c-1');
    expect(plainOf(dirty.take())).toEqual({
      projects: { p: { endpoints: { 'ep-1': {} } } },
      liveConnections: { 'ep-1': { 'c-1': {} } },
    });
  });

  it('records nothing for entries it does not find, and throws for ones that must be there', () => {
    const { dirty, write } = given();
    expect(write.entryIfAny('p', 'branches', 'br-x')).toBeUndefined();
    expect(write.entryIfAny('p-x', 'branches', 'br-x')).toBeUndefined();
    expect(write.rootEntry('connections', 'c-x')).toBeUndefined();
    write.remove('p', 'operations', 'op-x');
    expect(dirty.any).toBe(false);
    expect(() => write.entry('p', 'endpoints', 'ep-x')).toThrow('no compute ep-x in project p');
    expect(() => write.project('p-x')).toThrow('no project p-x');
  });

  it('marks a project for publishing when it prunes the project’s archived operations', () => {
    const { dirty, write } = given();
    write.pruneArchived('p', 1_000);
    expect(plainOf(dirty.take())).toEqual({ projects: { p: { [OWN_FIELDS]: {} } } });
  });

  it('hands out the state to read only: a change that bypasses it does not compile', () => {
    const { state, write } = given();
    const read = (): void => {
      // @ts-expect-error the state is read-only through the writer
      write.state.projects['p']!.name = 'renamed';
      // @ts-expect-error a project's collections change through the writer's entries
      write.project('p').endpoints['ep-1'] = {} as EndpointState;
    };
    expect(typeof read).toBe('function');
    expect(state.projects['p']?.name).toBe('p');
  });
});
