/**
 * What went wrong, in words, whatever was thrown: an `Error`'s message, a thrown object's own
 * `message`, or the object as JSON (its type only when it cannot be written so).
 */

/** The words of `cause`, whatever was thrown. */
export function errorText(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  if (typeof cause === 'object' && cause !== null) {
    const message = (cause as { message?: unknown }).message;
    if (typeof message === 'string') return message;
    try {
      return JSON.stringify(cause);
    } catch {
      return Object.prototype.toString.call(cause);
    }
  }
  return String(cause);
}
