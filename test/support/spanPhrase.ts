/**
 * A phrase that states a span of time in words (`for a week`, `30 days`, `six hours`), for tests
 * that check a description leaves the span to the line that prints the span actually run.
 */

/** Matches a number or article followed by a unit of time. */
export const SPAN_PHRASE =
  /\b(\d[\d,.]*|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s+(seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b/i;
