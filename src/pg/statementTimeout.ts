/**
 * `statement_timeout`, which an embedded Postgres accepts but cannot enforce (its timers never fire
 * while a statement runs): the front reads a session's value from the backend when it does not
 * know it (after a startup, or a statement that may have changed it) and stops a statement that
 * runs past it.
 */
import { queryMessage } from './backendMessages.js';
import { firstValue } from './backendReplies.js';
import type { HeldDatabase } from './branchDatabases.js';
import type { SessionState } from './sessionState.js';
import { statementTexts } from './clientBatch.js';

const READ_TIMEOUT = queryMessage(
  "select setting from pg_settings where name = 'statement_timeout'",
);

/** Words of statements after which a session's `statement_timeout` is read again. */
const MAY_SET = /statement_timeout|reset\s+all|discard\s+all|set_config/i;

/** The session's `statement_timeout` in ms (0: none), read from the backend when not known. */
export async function statementTimeoutOf(
  held: HeldDatabase,
  session: SessionState,
): Promise<number> {
  if (session.statementTimeoutMs !== undefined) return session.statementTimeoutMs;
  const value = firstValue(await held.reply(READ_TIMEOUT));
  // In a failed transaction the backend answers nothing: unknown, read again next time.
  if (value === undefined || !Number.isFinite(Number(value))) return 0;
  session.statementTimeoutMs = Number(value);
  return session.statementTimeoutMs;
}

/** Whether client messages may change the session's `statement_timeout` (their SQL says so). */
export function maySetTimeout(messages: Uint8Array): boolean {
  return statementTexts(messages).some((text) => MAY_SET.test(text));
}
