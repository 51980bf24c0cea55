/**
 * The verdict on one client run: what the oracles found in its record, what the monitors found in
 * the simulation's log, whether the job ended as the property expects, and the property's own
 * checks. `clientProperty` judges each run with it; a failing verdict names who said so.
 */
import { errorText } from '../core/errorText.js';
import type { Monitor } from './monitors/monitor.js';
import { checkLog, formatViolation, type MonitorViolation } from './monitors/watchMonitors.js';
import {
  checkClient,
  formatFinding,
  requestLine,
  type ClientOracle,
  type OracleFinding,
} from './oracles/clientOracle.js';
import type { ClientRecord } from './clientRecord.js';
import type { ClientRun } from './simHarness.js';

/**
 * What a run's job must come to: `'success'` (it returned), or `'end'` (it returned or threw: under
 * harsh faults a careful job may fail, but it reports and ends rather than waiting forever).
 */
export type JobExpectation = 'success' | 'end';

/** What judges a run. */
export interface VerdictJudges {
  readonly expect: JobExpectation;
  readonly oracles: readonly ClientOracle[];
  /** Makes the monitors over the run's log (a fresh set: monitors keep state); none when empty. */
  readonly monitors: () => readonly Monitor[];
}

/** The verdict on one run. */
export interface ClientVerdict<T = unknown> {
  readonly run: ClientRun<T>;
  /** The oracles' findings over the client's record (one at most per oracle). */
  readonly findings: readonly OracleFinding[];
  /** The first monitor violation in the log. */
  readonly violation?: MonitorViolation;
  /** What the property's own check threw. */
  readonly checkError?: unknown;
  /**
   * Who said the run failed, in this order: oracle names, the monitor's, then the job's outcome
   * (`job failed` when it threw where success was expected; `timed_out`, `stuck`, `busy`), then
   * `check`. Empty when the run passed.
   */
  readonly labels: readonly string[];
  /** What the first of them said, for a person to read ('' when the run passed). */
  readonly message: string;
}

/** The labels and message of a run whose record, log and outcome have been judged. */
export function judgeRun<T>(
  run: ClientRun<T>,
  judges: VerdictJudges,
  checkError?: { readonly error: unknown },
): ClientVerdict<T> {
  const findings = checkClient(run.record, judges.oracles);
  const monitors = judges.monitors();
  const violation = monitors.length === 0 ? undefined : checkLog(run.sim.log, monitors);
  const ended = run.outcome === 'returned' || (judges.expect === 'end' && run.outcome === 'threw');
  const job = ended ? [] : [run.outcome === 'threw' ? 'job failed' : run.outcome];
  const labels = [
    ...findings.map((finding) => finding.oracle),
    ...(violation === undefined ? [] : [violation.monitor]),
    ...job,
    ...(checkError === undefined ? [] : ['check']),
  ];
  const first = findings[0];
  const message =
    first !== undefined
      ? formatFinding(first, run.record)
      : violation !== undefined
        ? formatViolation(violation)
        : !ended
          ? jobMessage(run)
          : checkError !== undefined
            ? `check: ${errorText(checkError.error)}`
            : '';
  return {
    run,
    findings,
    ...(violation === undefined ? {} : { violation }),
    ...(checkError === undefined ? {} : { checkError: checkError.error }),
    labels,
    message,
  };
}

/** Why the job did not end as expected, with the client's last requests. */
function jobMessage(run: ClientRun<unknown>): string {
  const span = `within ${Math.round((run.endedAt - run.startedAt) / 60_000)} min of virtual time`;
  const why =
    run.outcome === 'threw'
      ? `job failed: it threw ${firstLine(run.error)}`
      : run.outcome === 'timed_out'
        ? `timed_out: the client was still waiting at the end of the run (${span})`
        : run.outcome === 'stuck'
          ? 'stuck: the client waits on something that is not a virtual timer nor a request'
          : 'busy: the client kept sending requests without letting virtual time pass';
  return `${why}\n${lastRequests(run.record)}`;
}

/** The client's last requests, as `formatFinding` lists those up to a finding. */
function lastRequests(record: ClientRecord, count = 6): string {
  const start = record.requests[0]?.at ?? 0;
  const lines = record.requests.slice(-count).map((r) => `    ${requestLine(r, start)}`);
  return lines.length === 0 ? '  (no request)' : ['  its last requests:', ...lines].join('\n');
}

/** An error's name and first line. */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : errorText(error);
  return text.split('\n')[0] ?? text;
}
