/**
 * Writing clients of a served simulation that keep what the server acknowledged: each creates a
 * project, a branch on the project it made one cycle before, and sets the suspend timeout of the
 * compute of the one before that (projects a cycle or two old are settled, so few writes are
 * refused as "not ready yet"). After a restart, `lostWrites` asks for each acknowledged change.
 */
import type { JsonBody } from './serveProcess.js';

/** One request to a served simulation, its body parsed (`ServeProcess.call`). */
export type CallServer = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: JsonBody | undefined }>;

/** Everything the writers were told succeeded. */
export class AcknowledgedWrites {
  /** Project id → the id of its compute. */
  readonly projects = new Map<string, string>();
  /** Branch id → its project's id. */
  readonly branches = new Map<string, string>();
  /** Compute id → its project's id and the suspend timeout last acknowledged for it. */
  readonly suspendTimeouts = new Map<string, { readonly projectId: string; seconds: number }>();
  #count = 0;

  /** How many writes were acknowledged (each create and each update answered with success). */
  get count(): number {
    return this.#count;
  }

  project(id: string, endpointId: string): void {
    this.projects.set(id, endpointId);
    this.#count++;
  }

  branch(id: string, projectId: string): void {
    this.branches.set(id, projectId);
    this.#count++;
  }

  suspendTimeout(endpointId: string, projectId: string, seconds: number): void {
    this.suspendTimeouts.set(endpointId, { projectId, seconds });
    this.#count++;
  }
}

/** What the writers saw of the server: every answer's latency, and the answers that were no. */
export interface WriterFigures {
  /** Milliseconds from sending each request to having its whole answer, every answer. */
  readonly latenciesMs: number[];
  /**
   * Answers 4xx by status (a project not ready for the change yet): not acknowledged, not a
   * failure.
   */
  readonly refused: Map<number, number>;
  /** Answered 5xx, or no answer at all. */
  failed: number;
}

/** New, empty writer figures. */
export function writerFigures(): WriterFigures {
  return { latenciesMs: [], refused: new Map(), failed: 0 };
}

/**
 * One writing client, number `writer`: cycles of writes until `stopping()`, each acknowledged one
 * kept in `acked`, every answer counted in `figures`.
 */
export async function writeInLoop(
  call: CallServer,
  writer: number,
  acked: AcknowledgedWrites,
  figures: WriterFigures,
  stopping: () => boolean,
): Promise<void> {
  const timed = async (method: string, path: string, body: unknown) => {
    const started = performance.now();
    try {
      const answer = await call(method, path, body);
      figures.latenciesMs.push(performance.now() - started);
      if (answer.status >= 500) figures.failed++;
      else if (answer.status >= 400)
        figures.refused.set(answer.status, (figures.refused.get(answer.status) ?? 0) + 1);
      return answer.status < 300 ? answer.body : undefined;
    } catch {
      figures.failed++;
      return undefined;
    }
  };
  const made: { readonly id: string; readonly endpointId: string }[] = [];
  for (let cycle = 0; !stopping(); cycle++) {
    const created = await timed('POST', '/projects', {
      project: { name: `soak-w${writer}-${cycle}` },
    });
    if (created !== undefined) {
      const project = { id: created['project'].id, endpointId: created['endpoints'][0].id };
      acked.project(project.id, project.endpointId);
      made.push(project);
    }
    const previous = made.at(-2);
    if (previous !== undefined) {
      const branch = await timed('POST', `/projects/${previous.id}/branches`, {
        branch: { name: `soak-b${cycle}` },
      });
      if (branch !== undefined) acked.branch(branch['branch'].id, previous.id);
    }
    const older = made.at(-3);
    if (older !== undefined) {
      // Distinct from the default (0) and from every other cycle's value.
      const seconds = 60 + (cycle % 100_000);
      const patched = await timed('PATCH', `/projects/${older.id}/endpoints/${older.endpointId}`, {
        endpoint: { suspend_timeout_seconds: seconds },
      });
      if (patched !== undefined) acked.suspendTimeout(older.endpointId, older.id, seconds);
    }
    if (made.length > 3) made.shift();
  }
}

/**
 * The acknowledged writes a (restarted) server does not have, each described in a line: asked for
 * one by one, `lanes` requests at a time.
 */
export async function lostWrites(
  call: CallServer,
  acked: AcknowledgedWrites,
  lanes = 8,
): Promise<string[]> {
  const checks: (() => Promise<string | undefined>)[] = [
    ...[...acked.projects.keys()].map((id) => async () => {
      const { status } = await call('GET', `/projects/${id}`);
      return status === 200 ? undefined : `project ${id}: ${status}`;
    }),
    ...[...acked.branches].map(([id, projectId]) => async () => {
      const { status } = await call('GET', `/projects/${projectId}/branches/${id}`);
      return status === 200 ? undefined : `branch ${id} of ${projectId}: ${status}`;
    }),
    ...[...acked.suspendTimeouts].map(([id, { projectId, seconds }]) => async () => {
      const { status, body } = await call('GET', `/projects/${projectId}/endpoints/${id}`);
      const found = body?.['endpoint']?.suspend_timeout_seconds;
      return status === 200 && found === seconds
        ? undefined
        : `suspend timeout ${seconds} s of ${id}: ${status}, ${String(found)}`;
    }),
  ];
  const lost: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < checks.length) {
        const missing = await (checks[next++] as () => Promise<string | undefined>)();
        if (missing !== undefined) lost.push(missing);
      }
    }),
  );
  return lost;
}
