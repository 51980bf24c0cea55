/**
 * Read replicas: a branch has at most one read-write compute, but any number of read-only ones.
 * Adding a second read-write compute is refused (409); two read-only computes start beside the primary
 * and serve their own clients.
 *
 * Run: npm start -- run scenarios/read-replicas.ts
 */
import { defineScenario } from '../src/index.js';

export default defineScenario({
  name: 'read-replicas',
  description: 'one read-write compute per branch, read-only replicas beside it',
  seed: 8,
  start: '2026-01-05T09:00:00Z',
  script(s) {
    const { project, branch, operations } = s.request('POST', '/projects', {
      project: { name: 'replicas' },
    }).body;
    const computes = `/projects/${project.id}/endpoints`;

    s.waitFor(operations, () => {
      const second = s.request('POST', computes, {
        endpoint: { branch_id: branch.id, type: 'read_write' },
      });
      s.expect('a second read-write compute on the branch', second.status, 409);
      const replica = () =>
        s.request('POST', computes, { endpoint: { branch_id: branch.id, type: 'read_only' } }).body;
      const first = replica();
      s.note(
        'one operation at a time on a branch: the second replica waits for the first (else 423)',
      );
      s.waitFor(first.operations, () => {
        const second = replica();
        s.waitFor(second.operations, () => {
          const list = s.request('GET', computes).body.endpoints as { type: string }[];
          s.expect('compute types on the branch', list.map((e) => e.type).sort(), [
            'read_only',
            'read_only',
            'read_write',
          ]);
          for (const { endpoint } of [first, second])
            s.expect(`a client of replica ${endpoint.id}`, s.connect(endpoint.id).state, 'open');
        });
      });
    });
  },
});
