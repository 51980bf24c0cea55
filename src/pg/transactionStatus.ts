/**
 * Reads what a Postgres backend's reply says of its session: the transaction status of the last
 * ReadyForQuery message (`I` idle, `T` in a transaction, `E` in a failed transaction), if the reply
 * holds one. Messages are `type(1) length(4, including itself) payload`.
 */

/** The transaction status a ReadyForQuery reports. */
export type TransactionStatus = 'I' | 'T' | 'E';

const READY_FOR_QUERY = 0x5a; // 'Z'

/** The status of the last ReadyForQuery in `reply`, or `undefined` when it has none. */
export function lastTransactionStatus(reply: Uint8Array): TransactionStatus | undefined {
  let status: TransactionStatus | undefined;
  let offset = 0;
  while (offset + 5 <= reply.length) {
    const type = reply[offset] as number;
    const length =
      (((reply[offset + 1] as number) << 24) |
        ((reply[offset + 2] as number) << 16) |
        ((reply[offset + 3] as number) << 8) |
        (reply[offset + 4] as number)) >>>
      0;
    if (length < 4) break;
    if (type === READY_FOR_QUERY && length === 5 && offset + 6 <= reply.length)
      status = String.fromCharCode(reply[offset + 5] as number) as TransactionStatus;
    offset += 1 + length;
  }
  return status;
}
