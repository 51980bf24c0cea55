/**
 * What a command writes to: lines for stdout and stderr, files, and (on a terminal) a progress bar.
 * Tests pass their own and capture everything.
 */

/** The outputs of one CLI invocation. */
export interface CliIo {
  /** One line of results (stdout). */
  readonly out: (line: string) => void;
  /** One line of diagnostics (stderr). */
  readonly err: (line: string) => void;
  /**
   * Writes a whole file (results a command was asked to save): one string, or pieces written as
   * they come (a log of any size, never joined into one string).
   */
  readonly writeFile: (path: string, text: string | Iterable<string>) => void;
  /** Whether stdout is a terminal (a person reads it as it comes). */
  readonly stdoutTerminal?: boolean;
  /** Whether stdout takes colours (a terminal, and NO_COLOR unset). */
  readonly color?: boolean;
  /** Where a progress bar may draw: a terminal's stderr, or `undefined` (no bar). */
  readonly progressStream?: NodeJS.WriteStream;
}
