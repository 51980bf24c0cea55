/**
 * Why a long-lived response stream was ended by its producer: its reader fell too far behind. The
 * server drops the connection at once (its buffers go with it) instead of reporting an error.
 */

/** The reason a stream is errored with when its reader is dropped for not reading. */
export class StreamDropped extends Error {
  constructor(message = 'the reader fell behind and was dropped') {
    super(message);
    this.name = 'StreamDropped';
  }
}
