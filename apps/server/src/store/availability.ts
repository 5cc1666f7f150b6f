import { ServiceError } from "../errors.js";

// SQLSTATE classes and codes that mean "the database cannot serve this now; the same request may work later":
// connection exceptions (08), operator intervention (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot
// connect now), the server ending an idle session (25P03 idle_in_transaction_session_timeout, 57P05
// idle_session_timeout: its FATAL answers whatever query is waiting, store/session-timeouts.test.ts), a cancelled
// statement (57014: our statement_timeout), too many connections (53300), and the transient conflicts a retry resolves
// (40001 serialization failure, 40P01 deadlock).
const PG_TRANSIENT = /^(08...|57P0[1235]|25P03|57014|53300|40001|40P01)$/;

// Socket-level failures on the way to the database.
const NET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

// SQLite: another process holds the write lock beyond busy_timeout, or the disk failed or filled up.
const SQLITE_TRANSIENT = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN)/;

// pg reports its own timeouts and lost connections as plain Errors without a code; their messages are the only
// mark (pg 8: "Query read timeout", "timeout exceeded when trying to connect", "Connection terminated …",
// "Client has encountered a connection error and is not queryable").
const PG_CLIENT_MESSAGES =
  /^(Query read timeout|timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error)/;

/**
 * True when an error means the store is unreachable, overloaded or timed out — a condition the caller should
 * answer with 503 `unavailable` and a retry hint — as opposed to a bug or a constraint the request itself broke.
 */
export function isStoreUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") {
    if (typeof (err as { severity?: unknown }).severity === "string") return PG_TRANSIENT.test(code);
    if (NET_CODES.has(code) || SQLITE_TRANSIENT.test(code)) return true;
  }
  return PG_CLIENT_MESSAGES.test(err.message);
}

/** Seconds a client is told to wait before retrying after the store was unavailable. */
export const STORE_RETRY_AFTER_SECONDS = 2;

/** The 503 a request gets when the store could not serve it. */
export function storeUnavailableError(): ServiceError {
  return new ServiceError(
    "unavailable",
    "the service's database did not answer in time; the request was not completed — retry shortly",
    { retry_after_seconds: STORE_RETRY_AFTER_SECONDS },
  );
}
