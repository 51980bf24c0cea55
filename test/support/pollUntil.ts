/**
 * Waiting for a condition by polling it, for tests that must not wait a fixed time: the bound is a
 * ceiling a loaded machine meets, never a figure asserted.
 */

/** Waits for `done`, polling every 25 ms; fails with `seen()` after `seconds`. */
export async function pollUntil(
  done: () => boolean,
  seen: () => unknown,
  seconds = 20,
): Promise<void> {
  for (let waited = 0; !done(); waited += 25) {
    if (waited > seconds * 1000) throw new Error(`still waiting: ${JSON.stringify(seen())}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
