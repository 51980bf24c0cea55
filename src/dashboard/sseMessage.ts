/**
 * One message of a `text/event-stream` (server-sent events): an optional id, an event name and
 * JSON data, one `data:` line (JSON has no raw newlines).
 */

/** The text of one message; `id` is what a reader sends back as `Last-Event-ID`. */
export function sseMessage(event: string, data: unknown, id?: string): string {
  return sseMessageOfJson(event, JSON.stringify(data), id);
}

/** The text of one message whose data is already JSON (`json`: one line, as JSON has no raw newline). */
export function sseMessageOfJson(event: string, json: string, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${json}\n\n`;
}

/** A comment line: keeps the connection open through proxies, and shows a dead one up. */
export const SSE_HEARTBEAT = ': keep-alive\n\n';
