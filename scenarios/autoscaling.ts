/**
 * Autoscaling without restart: a 0.25-2 CU compute with a few light clients, then a burst of heavy
 * queries. At the next 5-second sample it grows to fit the demand; a minute after the burst it
 * shrinks back. No restart, no dropped connection: clients never notice.
 *
 * Run: npm start -- run scenarios/autoscaling.ts
 */
import { defineScenario } from '../src/index.js';

export default defineScenario({
  name: 'autoscaling',
  description: 'a burst of heavy queries: the compute grows and shrinks, no restart, no drop',
  seed: 11,
  start: '2026-01-05T09:00:00Z',
  duration: '20m',
  script(s) {
    const { project, endpoints, operations } = s.request('POST', '/projects', {
      project: {
        name: 'autoscaling',
        default_endpoint_settings: {
          autoscaling_limit_min_cu: 0.25,
          autoscaling_limit_max_cu: 2,
          suspend_timeout_seconds: -1,
        },
      },
    }).body;
    const endpointId: string = endpoints[0].id;
    const compute = () => s.state.projects[project.id]?.endpoints[endpointId];

    s.waitFor(operations, () => {
      const steady = s.connect(endpointId);
      s.note('one long-lived client; at +5m, 8 heavy queries (0.4 vCPU each) for 3 minutes');
      s.at('+5m', () => {
        s.workload({
          kind: 'burst',
          endpointId,
          count: 8,
          within: '10s',
          session: { duration: '3m', cpu: 0.4 },
        });
      });
      s.at('+6m', () => {
        s.expect(
          'size under the burst (CU)',
          compute()?.allocatedCu,
          (cu) => cu !== undefined && cu >= 1,
        );
        s.expect('the long-lived client', steady.state, 'open');
      });
      s.at('+12m', () => {
        s.expect('size after the burst (CU)', compute()?.allocatedCu, 0.25);
        s.expect('the long-lived client', steady.state, 'open');
        s.expect(
          'restarts (R) or suspends (z) so far',
          /[Rz]/.test(s.lifecycle(endpointId)),
          false,
        );
      });
    });
  },
});
