/**
 * One statement of a `POST /sql`, run as the real service's proxy runs it and written as the JSON it
 * answers, within the proxy's response size limit. The statement runs through the extended protocol
 * in rounds: Execute with a row limit, then Flush, as many times as the portal is suspended, and
 * Sync at the end, so the backend never gets ahead of the answer by more than a round. Each round's
 * reply is read chunk by chunk as the database thread streams it: its rows become JSON at once,
 * counted against the limit, and nothing else of the reply is kept. Once the answer is past the
 * limit, the rest of the round is drained without a look and the statement is abandoned (its
 * portal closed, what it did rolled back: the real proxy drops its connection mid-result), so a
 * result of any size costs at most the limit in memory and in work on the main thread, and the
 * database stays open for its other clients.
 */
import { backendMessage } from './backendMessages.js';
import type { HeldDatabase } from './branchDatabases.js';
import { refusalOf, type Refusal } from './refusedStatements.js';
import type { JsonWriter } from './sqlOverHttpJson.js';
import {
  ABANDON,
  bindMessage,
  executeMessage,
  FLUSH,
  paramText,
  parseMessage,
  SYNC,
} from './sqlOverHttpMessages.js';
import { ResultReader } from './sqlOverHttpReply.js';

/**
 * The most parameters a statement can have: the real proxy's client counts them in a signed 16-bit
 * integer (Postgres would take 65,535), and fails to encode the Bind of more.
 */
const MAX_PARAMETERS = 32_767;

/** The real proxy's message for a statement with more than {@link MAX_PARAMETERS} parameters. */
const TOO_MANY_PARAMETERS_MESSAGE = 'error encoding message to server: value too large to transmit';

const FIRST_ROUND_ROWS = 256;

/** One statement of a request. */
export interface Statement {
  readonly query: string;
  readonly params: readonly unknown[];
}

/** How a statement ended: its JSON written, an error of Postgres's, or an answer past the limit. */
export type RunOutcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'error'; readonly fields: Record<string, string> }
  | { readonly kind: 'tooLarge' };

/**
 * Runs `statement` on `held` (parameters as text, rows as text) and writes its result to `out` as
 * the proxy does: `{"fields":[…],"rows":[…],"command":…,"rowCount":…,"rowAsArray":…}`. On an error
 * or past the limit, what `out` holds is to be dropped.
 */
export async function runStatement(
  held: HeldDatabase,
  statement: Statement,
  out: JsonWriter,
  arrayMode: boolean,
): Promise<RunOutcome> {
  const refusal = refusalOf(statement.query);
  if (refusal !== undefined) return { kind: 'error', fields: refusalFields(refusal) };
  const params = statement.params.map(paramText);
  if (params.length > MAX_PARAMETERS) {
    // The proxy parses the statement before it binds: a statement Postgres refuses fails as such.
    const parsed = new ResultReader(out, arrayMode);
    await held.exec(Buffer.concat([parseMessage(statement.query), SYNC]), parsed.writer);
    await parsed.drained();
    if (parsed.error !== undefined) return { kind: 'error', fields: parsed.error };
    return { kind: 'error', fields: { code: '08P01', message: TOO_MANY_PARAMETERS_MESSAGE } };
  }
  const reader = new ResultReader(out, arrayMode);
  let round = Buffer.concat([
    parseMessage(statement.query),
    bindMessage(params),
    backendMessage('D', Buffer.from('P\0')),
    executeMessage(FIRST_ROUND_ROWS),
    FLUSH,
  ]);
  for (;;) {
    reader.startRound();
    await held.exec(round, reader.writer);
    await reader.drained();
    if (reader.tooLarge) {
      await held.exec(ABANDON, () => undefined);
      return { kind: 'tooLarge' };
    }
    if (reader.error !== undefined) {
      if (!(await synced(held))) return STOPPED_ANSWERING;
      return { kind: 'error', fields: reader.error };
    }
    if (!reader.suspended) break;
    round = Buffer.concat([executeMessage(reader.nextRoundRows()), FLUSH]);
  }
  if (!(await synced(held))) return STOPPED_ANSWERING;
  reader.finish();
  return { kind: 'done' };
}

/**
 * Ends the exchange with a Sync; false when the backend did not even say it was ready (it is
 * broken, as an embedded Postgres is after `COPY … PROGRAM` run by text built at run time): then it
 * is stopped, and the next client opens it again.
 */
async function synced(held: HeldDatabase): Promise<boolean> {
  let ready = false;
  await held.exec(SYNC, (chunk) => {
    if (Buffer.from(chunk).includes(READY_FOR_QUERY)) ready = true;
  });
  if (!ready) await held.stop();
  return ready;
}

const READY_FOR_QUERY = backendMessage('Z', Buffer.from('I')).subarray(0, 5);

const STOPPED_ANSWERING: RunOutcome = {
  kind: 'error',
  fields: {
    code: '08006',
    message:
      'computesim could not serve the connection: the database stopped answering; it was restarted',
  },
};

/** A refusal as the fields of the error the answer carries. */
function refusalFields(refusal: Refusal): Record<string, string> {
  return {
    code: refusal.sqlstate,
    message: refusal.message,
    ...(refusal.detail === undefined ? {} : { detail: refusal.detail }),
    ...(refusal.hint === undefined ? {} : { hint: refusal.hint }),
  };
}
