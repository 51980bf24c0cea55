/**
 * A preview branch per pull request, as a CI tool would do it: for each pull request, create a
 * branch with a read-write compute, wait for its operations, run the tests (a client for a few
 * minutes), and delete the branch when the pull request closes an hour later.
 *
 * Run: npm start -- run scenarios/preview-branches.ts
 */
import { defineScenario } from '../src/index.js';

export default defineScenario({
  name: 'preview-branches',
  description: 'a branch and compute per pull request, deleted when it closes',
  seed: 21,
  start: '2026-01-05T09:00:00Z',
  script(s) {
    const { project, operations } = s.request('POST', '/projects', {
      project: { name: 'app' },
    }).body;
    const branches = `/projects/${project.id}/branches`;
    let opened = 0;

    s.waitFor(operations, () => {
      s.every(
        '20m',
        () => {
          const pr = ++opened;
          const preview = s.request('POST', branches, {
            branch: { name: `preview/pr-${pr}` },
            endpoints: [{ type: 'read_write' }],
          }).body;
          s.waitFor(preview.operations, () => {
            const tests = s.connect(preview.endpoints[0].id);
            s.expect(`tests of pr-${pr} connect`, tests.state, 'open');
            s.at('+3m', () => tests.close());
          });
          s.at('+1h', () => {
            s.note(`pr-${pr} merged: delete its branch`);
            s.expect(
              `deleting pr-${pr}'s branch`,
              s.request('DELETE', `${branches}/${preview.branch.id}`).status,
              200,
            );
          });
        },
        { times: 3 },
      );
      s.at('+2h5m', () => {
        const left = s.request('GET', branches).body.branches as { name: string }[];
        s.expect(
          'branches left when every pull request has closed',
          left.map((b) => b.name),
          ['main'],
        );
      });
    });
  },
});
