/**
 * Careful, through the official SDK: the weekly maintenance of a project. Every compute gets a
 * 10-minute suspend timeout and a restart onto the current release, one after the other. Each call
 * is retried while the answer refuses for now (backing off from 1 s, never sooner than
 * `Retry-After`); each change's operations are polled every 5 s until they end, and the change is
 * made again when one ended badly. A compute deleted meanwhile is skipped; the job has two hours.
 */
import { createApiClient, type Operation } from '@neondatabase/api-client';
import type { ClientContext } from '../../../../src/testing/index.js';
import { DeadlineExceeded, POLL_MS, refusesForNow, RETRY } from '../neonApi.js';

/** What an SDK call throws for an answer that is not a success: axios's error. */
interface AxiosFailure {
  readonly isAxiosError: true;
  readonly response: { status: number; data: unknown; headers: Record<string, string> };
}

function axiosFailure(error: unknown): AxiosFailure | undefined {
  const failure = error as Partial<AxiosFailure> | undefined;
  return failure?.isAxiosError === true && failure.response !== undefined
    ? (failure as AxiosFailure)
    : undefined;
}

/** Restarts every compute of `projectId` with the new settings; returns how many it maintained. */
export async function sdkMaintenance(ctx: ClientContext, projectId: string): Promise<number> {
  const deadline = ctx.now() + 7_200_000;
  const { apiKey, baseURL, axiosAdapter } = ctx;
  const api = createApiClient({ apiKey, baseURL, adapter: axiosAdapter as never });
  const pause = async (ms: number) => {
    if (ctx.now() + ms > deadline) throw new DeadlineExceeded('maintaining');
    await ctx.sleep(ms);
  };

  /** One SDK call, retried with backoff while the answer refuses for now. */
  async function call<T>(send: () => Promise<{ data: T }>): Promise<T> {
    let delay: number = RETRY.firstDelayMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return (await send()).data;
      } catch (error) {
        const failure = axiosFailure(error);
        if (failure === undefined) throw error;
        const { status, data, headers } = failure.response;
        if (!refusesForNow(status, data) || attempt === RETRY.attempts) throw error;
        await pause(Math.max(delay, Number(headers['retry-after'] ?? 0) * 1_000));
        delay *= 2;
      }
    }
  }

  /** Polls each operation until it ends; whether all finished. */
  async function finished(operations: readonly Operation[]): Promise<boolean> {
    let allWell = true;
    for (const { id } of operations)
      for (;;) {
        const { operation } = await call(() => api.getProjectOperation(projectId, id));
        const status = String(operation.status);
        if (status === 'finished' || status === 'skipped') break;
        if (status === 'error' || status === 'cancelled') {
          allWell = false;
          break;
        }
        await pause(POLL_MS);
      }
    return allWell;
  }

  /** A change made until its operations finish (three tries); false when the compute is gone. */
  async function maintain(
    send: () => Promise<{ data: { operations: Operation[] } }>,
    what: string,
  ): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      let operations: Operation[];
      try {
        ({ operations } = await call(send));
      } catch (error) {
        if (axiosFailure(error)?.response.status === 404) return false;
        throw error;
      }
      if (await finished(operations)) return true;
      if (attempt === 3) throw new Error(`${what} failed three times`);
    }
  }

  const { endpoints } = await call(() => api.listProjectEndpoints(projectId));
  let maintained = 0;
  for (const endpoint of endpoints) {
    const settings = { endpoint: { suspend_timeout_seconds: 600 } };
    const updated = await maintain(
      () => api.updateProjectEndpoint(projectId, endpoint.id, settings),
      `the settings of ${endpoint.id}`,
    );
    if (!updated) continue;
    const restarted = await maintain(
      () => api.restartProjectEndpoint(projectId, endpoint.id),
      `the restart of ${endpoint.id}`,
    );
    if (restarted) maintained += 1;
  }
  return maintained;
}
