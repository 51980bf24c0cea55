/**
 * The front's own statements on a Postgres server (making a role or a database a client names):
 * one simple query on a link, its rows as text, its error thrown.
 */
import { errorFields, type BackendLink } from './backendLink.js';
import { queryMessage } from './backendMessages.js';

/** Runs `sql` on `link`; resolves to the rows of its last result (each column as text or null). */
export async function adminQuery(link: BackendLink, sql: string): Promise<(string | null)[][]> {
  const chunks: Uint8Array[] = [];
  await link.exec(queryMessage(sql), (chunk) => chunks.push(chunk));
  const reply = Buffer.concat(chunks);
  let rows: (string | null)[][] = [];
  let ready = false;
  for (let offset = 0; offset + 5 <= reply.length;) {
    const type = String.fromCharCode(reply[offset] as number);
    const length = reply.readUInt32BE(offset + 1);
    const body = reply.subarray(offset + 5, offset + 1 + length);
    offset += 1 + length;
    if (type === 'T') rows = [];
    else if (type === 'D') rows.push(dataRow(body));
    else if (type === 'Z') ready = true;
    else if (type === 'E') {
      const fields = errorFields(body);
      throw new Error(`${fields.get('M') ?? 'failed'} (${fields.get('C') ?? 'XX000'}): ${sql}`);
    }
  }
  if (!ready) throw new Error(`the server did not answer: ${sql}`);
  return rows;
}

function dataRow(body: Buffer): (string | null)[] {
  const columns: (string | null)[] = [];
  let offset = 2;
  for (let count = body.readInt16BE(0); count > 0; count -= 1) {
    const length = body.readInt32BE(offset);
    offset += 4;
    if (length < 0) columns.push(null);
    else {
      columns.push(body.subarray(offset, offset + length).toString('utf8'));
      offset += length;
    }
  }
  return columns;
}

/** `name` as a quoted identifier. */
export function quotedName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `text` as a string literal (standard conforming strings, as every server here has). */
export function quotedText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
