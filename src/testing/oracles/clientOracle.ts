/**
 * Client-behaviour oracles: judges of a client's recorded requests and connections. Each oracle
 * returns its first finding; `checkClient` runs several and formats what they found.
 */
import { formatInstant } from '../../core/instant.js';
import { formatDuration } from '../../core/duration.js';
import type { ClientRecord, RecordedRequest } from '../clientRecord.js';

/** What an oracle found wrong: where in the record, and why. */
export interface OracleFinding {
  readonly oracle: string;
  /** Virtual time of the offending request or connection, epoch ms. */
  readonly at: number;
  /** Index of the offending request (undefined for a connection finding). */
  readonly requestIndex?: number;
  /** Index of the offending connection. */
  readonly connectionIndex?: number;
  readonly message: string;
}

/** A judge of client behaviour over a record. */
export interface ClientOracle {
  readonly name: string;
  /** The first violation in `record`, or undefined when the client behaved. */
  check(record: ClientRecord): OracleFinding | undefined;
}

/** Runs `oracles` over `record`; returns every finding (one at most per oracle). */
export function checkClient(
  record: ClientRecord,
  oracles: readonly ClientOracle[],
): OracleFinding[] {
  const findings: OracleFinding[] = [];
  for (const oracle of oracles) {
    const finding = oracle.check(record);
    if (finding !== undefined) findings.push(finding);
  }
  return findings;
}

/** Thrown by `assertClient`: its message is the formatted findings. */
export class ClientBehaviourError extends Error {
  constructor(
    readonly findings: readonly OracleFinding[],
    record: ClientRecord,
  ) {
    super(findings.map((f) => formatFinding(f, record)).join('\n\n'));
    this.name = 'ClientBehaviourError';
  }
}

/** Throws a `ClientBehaviourError` when any oracle finds something. */
export function assertClient(record: ClientRecord, oracles: readonly ClientOracle[]): void {
  const findings = checkClient(record, oracles);
  if (findings.length > 0) throw new ClientBehaviourError(findings, record);
}

/** A finding with the requests that led to it, for a person to read. */
export function formatFinding(finding: OracleFinding, record: ClientRecord, context = 4): string {
  const start = record.requests[0]?.at ?? record.connections[0]?.at ?? finding.at;
  const lines = [
    `${finding.oracle}: ${finding.message}`,
    `  at ${formatInstant(finding.at)} (+${formatDuration(finding.at - start)} into the run)`,
  ];
  const last = finding.requestIndex ?? lastRequestBefore(record, finding.at);
  if (last !== undefined && last >= 0) {
    lines.push('  requests up to it:');
    for (const request of record.requests.slice(Math.max(0, last - context), last + 1))
      lines.push(
        `  ${request.index === finding.requestIndex ? '>' : ' '} ${requestLine(request, start)}`,
      );
  }
  return lines.join('\n');
}

/** One request as a line: `#3 +5s GET /projects/p/operations/o → 200 running`. */
export function requestLine(request: RecordedRequest, start: number): string {
  const query = request.query === '' ? '' : `?${request.query}`;
  const status = statusNote(request.response);
  return `#${request.index} +${formatDuration(request.at - start)} ${request.method} ${request.path}${query} → ${request.status}${request.injected === undefined ? '' : ` (injected)`}${status === '' ? '' : ` ${status}`}`;
}

function statusNote(response: unknown): string {
  const record = response as { operation?: { status?: unknown }; code?: unknown } | undefined;
  if (typeof record?.operation?.status === 'string') return record.operation.status;
  if (typeof record?.code === 'string') return record.code;
  return '';
}

function lastRequestBefore(record: ClientRecord, at: number): number | undefined {
  let found: number | undefined;
  for (const request of record.requests) if (request.at <= at) found = request.index;
  return found;
}
