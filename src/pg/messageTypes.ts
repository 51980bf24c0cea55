/**
 * The Postgres protocol's message types (the byte each message starts with, after the startup
 * packet) that the front reads or writes itself, by the protocol's own names: the one definition for
 * the handshake, the embedded and proxied traffic, copy-in and notifications.
 */

/** Bytes of a message's header: its type and its length. */
export const HEADER_BYTES = 5;

// Sent by clients.
/** `Q`: a simple query. */
export const QUERY = 0x51;
/** `P`: Parse, the first message of the extended protocol. */
export const PARSE = 0x50;
/** `B`: Bind. */
export const BIND = 0x42;
/** `D`: Describe (sent by clients; the same byte from a server is a DataRow). */
export const DESCRIBE = 0x44;
/** `C`: Close (sent by clients; the same byte from a server is a CommandComplete). */
export const CLOSE = 0x43;
/** `E`: Execute (sent by clients; the same byte from a server is an ErrorResponse). */
export const EXECUTE = 0x45;
/** `S`: Sync, the end of an extended-protocol batch. */
export const SYNC = 0x53;
/** `H`: Flush. */
export const FLUSH = 0x48;
/** `F`: FunctionCall. */
export const FUNCTION_CALL = 0x46;
/** `X`: Terminate. */
export const TERMINATE = 0x58;
/** `p`: a password, SASLInitialResponse and SASLResponse alike. */
export const PASSWORD_MESSAGE = 0x70;
/** `d`: CopyData (both ways). */
export const COPY_DATA = 0x64;
/** `c`: CopyDone. */
export const COPY_DONE = 0x63;
/** `f`: CopyFail. */
export const COPY_FAIL = 0x66;

// Sent by servers.
/** `Z`: ReadyForQuery. */
export const READY_FOR_QUERY = 0x5a;
/** `E`: ErrorResponse. */
export const ERROR_RESPONSE = 0x45;
/** `D`: DataRow. */
export const DATA_ROW = 0x44;
/** `C`: CommandComplete. */
export const COMMAND_COMPLETE = 0x43;
/** `G`: CopyInResponse. */
export const COPY_IN_RESPONSE = 0x47;
/** `A`: NotificationResponse. */
export const NOTIFICATION = 0x41;
/** `K`: BackendKeyData. */
export const BACKEND_KEY_DATA = 0x4b;
