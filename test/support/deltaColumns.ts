/**
 * Checks that a comparison table's columns line up as a terminal shows them: every configuration's
 * value ends, and its delta starts, at the same column on every line (`−`, `±` and `Δ` are one code
 * point and one column wide, so columns are counted in code points).
 */
import { expect } from 'vitest';

/** Asserts that `table` (its header first) has its values and deltas in columns. */
export function expectDeltasInColumns(table: string): void {
  const [header, ...rows] = table.split('\n').map((line) => [...line]);
  // Where each "(Δ)" of the header starts: the deltas' column, one space after the values'.
  const starts = [...header!.join('').matchAll(/\(Δ\)/g)].map(
    (match) => [...header!.join('').slice(0, match.index)].length,
  );
  expect(starts.length).toBeGreaterThan(0);
  for (const row of rows.filter((row) => row.length > 0)) {
    const line = row.join('');
    for (const start of starts) {
      // The value ends just before the space in front of the delta column (the end of a line
      // without a delta is trimmed).
      expect(row[start - 1] ?? ' ', line).toBe(' ');
      expect(row[start - 2], line).not.toBe(' ');
      // A delta, when there is one, starts there and nowhere else.
      if (row[start] !== undefined && row[start] !== ' ') expect(row[start], line).toBe('(');
    }
    const opened = row.flatMap((c, i) => (c === '(' && /[−+±]/.test(row[i + 1] ?? '') ? [i] : []));
    for (const at of opened) expect(starts, line).toContain(at);
  }
}
