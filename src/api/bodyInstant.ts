/**
 * Timestamps in response bodies as the real service writes them: ISO 8601 UTC in whole seconds
 * (`2025-09-10T07:58:16Z`), the milliseconds cut off. The operations cursor keeps full precision
 * (operationCursor.ts), so paging stays exact when several operations share one second.
 */
import { formatInstant } from '../core/instant.js';

/** Formats epoch milliseconds as ISO 8601 UTC in whole seconds, rounding down. */
export function formatBodyInstant(ms: number): string {
  return formatInstant(ms - (((ms % 1000) + 1000) % 1000));
}
