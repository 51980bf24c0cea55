/**
 * The extended-protocol messages SQL over HTTP sends a branch database for one statement, as the
 * real proxy's client sends them: Parse, Bind (parameters as text), Execute with a row limit, Flush,
 * Sync, and the sequence that abandons a statement half read.
 */
import { backendMessage, int16, int32 } from './backendMessages.js';

/** Ends the exchange: the backend answers what is pending and says it is ready. */
export const SYNC = backendMessage('S');
/** Asks the backend to send what it has, within the exchange. */
export const FLUSH = backendMessage('H');
/** Closes the unnamed portal, rolls back what the statement did, and ends the exchange. */
export const ABANDON = Buffer.concat([
  backendMessage('C', Buffer.from('P\0')),
  backendMessage('P', Buffer.concat([Buffer.from('\0ROLLBACK\0'), int16(0)])),
  backendMessage('B', Buffer.concat([Buffer.from('\0\0'), int16(0), int16(0), int16(0)])),
  backendMessage('E', Buffer.concat([Buffer.from('\0'), int32(0)])),
  SYNC,
]);

/** A parameter as the proxy sends it: text, or NULL. */
export function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Parse of `query` into the unnamed statement, its parameters' types left to the backend. */
export function parseMessage(query: string): Buffer {
  return backendMessage('P', Buffer.concat([Buffer.from(`\0${query}\0`, 'utf8'), int16(0)]));
}

/** Bind of `params` (text, or NULL) to the unnamed portal, its results asked as text. */
export function bindMessage(params: readonly (string | null)[]): Buffer {
  const bind: Buffer[] = [Buffer.from('\0\0'), int16(0), int16(params.length)];
  for (const param of params) {
    if (param === null) bind.push(int32(-1));
    else {
      const bytes = Buffer.from(param, 'utf8');
      bind.push(int32(bytes.length), bytes);
    }
  }
  bind.push(int16(0));
  return backendMessage('B', Buffer.concat(bind));
}

/** Execute of the unnamed portal, at most `maxRows` rows (0: all of them). */
export function executeMessage(maxRows: number): Buffer {
  return backendMessage('E', Buffer.concat([Buffer.from('\0'), int32(maxRows)]));
}
