/**
 * Recorded traces from files: CSV (`timestamp,endpoint,duration[,cpu]`, an optional header line) or
 * JSON Lines (`{"timestamp", "endpoint", "duration", "cpu"?}` per line). Timestamps are ISO 8601 or
 * epoch ms; durations are milliseconds or strings such as `'90s'`. Every bad row is reported with its
 * line number; nothing is returned unless all rows are good.
 */
import { tryParseDuration } from '../core/duration.js';
import { tryParseInstant } from '../core/instant.js';
import { err, ok, type Result } from '../core/result.js';
import type { TraceRow } from './workloadSpec.js';

/** Most problems listed in one error (the count of the rest is given). */
const MAX_REPORTED = 20;

/** Parses a trace file's text; `format` defaults to JSON Lines when the first row starts with `{`. */
export function parseTrace(
  text: string,
  format?: 'csv' | 'jsonl',
): Result<TraceRow[], readonly string[]> {
  const lines = text.split(/\r?\n/);
  const firstRow = lines.find((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  const kind = format ?? (firstRow?.trim().startsWith('{') === true ? 'jsonl' : 'csv');
  const rows: TraceRow[] = [];
  const problems: string[] = [];
  let headerSeen = false;
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (kind === 'csv' && !headerSeen && /^timestamp\s*,/i.test(line)) {
      headerSeen = true;
      continue;
    }
    headerSeen = true;
    const row = kind === 'csv' ? csvRow(line) : jsonRow(line);
    if (row.ok) rows.push(row.value);
    else problems.push(`line ${i + 1}: ${row.error}`);
  }
  if (problems.length > MAX_REPORTED)
    return err([
      ...problems.slice(0, MAX_REPORTED),
      `… and ${problems.length - MAX_REPORTED} more bad rows`,
    ]);
  if (problems.length > 0) return err(problems);
  if (rows.length === 0) return err(['the trace has no rows']);
  return ok(rows);
}

function csvRow(line: string): Result<TraceRow, string> {
  const fields = line.split(',').map((f) => f.trim());
  if (fields.length < 3 || fields.length > 4)
    return err(`expected timestamp,endpoint,duration[,cpu], got ${fields.length} fields`);
  const [timestamp, endpoint, duration, cpu] = fields as [string, string, string, string?];
  return row(
    /^\d+$/.test(timestamp) ? Number(timestamp) : timestamp,
    endpoint,
    /^\d+$/.test(duration) ? Number(duration) : duration,
    cpu === undefined || cpu === '' ? undefined : Number(cpu),
  );
}

function jsonRow(line: string): Result<TraceRow, string> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return err('not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return err('expected an object {"timestamp", "endpoint", "duration", "cpu"?}');
  const o = value as Record<string, unknown>;
  return row(o['timestamp'] ?? o['at'], o['endpoint'] ?? o['endpointId'], o['duration'], o['cpu']);
}

function row(
  timestamp: unknown,
  endpoint: unknown,
  duration: unknown,
  cpu: unknown,
): Result<TraceRow, string> {
  if (typeof timestamp !== 'string' && typeof timestamp !== 'number')
    return err('timestamp is missing');
  const at = tryParseInstant(timestamp);
  if (!at.ok) return err(`timestamp: ${at.error}`);
  if (typeof endpoint !== 'string' || !/^ep-[a-z0-9-]+$/.test(endpoint))
    return err(`endpoint must be a compute id like ep-…, got ${JSON.stringify(endpoint)}`);
  if (typeof duration !== 'string' && typeof duration !== 'number')
    return err('duration is missing');
  const parsed = tryParseDuration(duration);
  if (!parsed.ok) return err(`duration: ${parsed.error}`);
  if (cpu !== undefined && (typeof cpu !== 'number' || !Number.isFinite(cpu) || cpu < 0))
    return err(`cpu must be a number of vCPUs ≥ 0, got ${JSON.stringify(cpu)}`);
  return ok({
    at: at.value,
    endpointId: endpoint,
    duration: parsed.value,
    ...(cpu === undefined ? {} : { cpu }),
  });
}
