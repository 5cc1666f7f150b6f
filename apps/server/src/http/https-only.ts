import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorBody } from "./error-body.js";

export const HTTPS_REFUSAL = "this service is reachable over HTTPS only";

/**
 * The handler of the optional plain-HTTP listener: every request gets 403 https_required and nothing else runs
 * (no routing, no body read, no auth). The body is discarded and the connection closed.
 */
export function plainHttpRefuser(): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const body = JSON.stringify(errorBody("https_required", HTTPS_REFUSAL, randomUUID()));
    req.resume();
    res.writeHead(403, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
      Connection: "close",
    });
    res.end(body);
  };
}
