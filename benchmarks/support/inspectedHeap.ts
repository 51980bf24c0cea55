/**
 * The live JavaScript heap of another node process, read through its inspector (the process runs
 * with `--inspect=127.0.0.1:0`): a full collection first, so what is left is what the process
 * holds, not garbage it has not collected yet. RSS alone cannot tell the two apart: a server that
 * made a lot of garbage keeps the room it grew into (V8 sizes the heap by what it allocated), so
 * two servers holding the same state differ by hundreds of MB of RSS.
 */
import WebSocket from 'ws';

/** The inspector's address in what the process wrote on stderr, once it listens. */
export function inspectorUrl(stderr: string): string {
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
  if (url === undefined) throw new Error(`no inspector address in: ${stderr.slice(0, 400)}`);
  return url;
}

/** Collects all garbage in the process at `url`, then gives the bytes its heap still uses. */
export async function heapAfterFullCollection(url: string): Promise<number> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let next = 0;
  const waiting = new Map<number, (result: Record<string, unknown>) => void>();
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString()) as {
      id?: number;
      result?: Record<string, unknown>;
    };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result ?? {});
  });
  const send = (method: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = ++next;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, method }));
    });
  try {
    await send('HeapProfiler.collectGarbage');
    const usage = await send('Runtime.getHeapUsage');
    return usage['usedSize'] as number;
  } finally {
    socket.close();
  }
}
