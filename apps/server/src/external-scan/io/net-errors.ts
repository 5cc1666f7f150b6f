import type { NetFailureCode } from "./types.js";

// Socket errno codes to the scan's connection failure codes.
const CODES: Readonly<Record<string, NetFailureCode>> = {
  ECONNREFUSED: "connection_refused",
  ECONNRESET: "reset",
  EPIPE: "reset",
  EHOSTUNREACH: "unreachable",
  ENETUNREACH: "unreachable",
  EHOSTDOWN: "unreachable",
  EADDRNOTAVAIL: "unreachable",
  ETIMEDOUT: "timeout",
  ABORT_ERR: "aborted",
  HPE_INVALID_CONSTANT: "protocol_error",
  HPE_INVALID_VERSION: "protocol_error",
  HPE_INVALID_STATUS: "protocol_error",
  HPE_INVALID_HEADER_TOKEN: "protocol_error",
  HPE_HEADER_OVERFLOW: "protocol_error",
  EPROTO: "handshake_failed",
};

/** The failure code for a socket or HTTP error; TLS errors (ERR_SSL_*) count as failed handshakes. */
export function netFailureCode(error: NodeJS.ErrnoException): NetFailureCode {
  const code = error.code ?? "";
  if (code in CODES) return CODES[code]!;
  if (code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_")) return "handshake_failed";
  if (code.startsWith("HPE_")) return "protocol_error";
  return "error";
}
