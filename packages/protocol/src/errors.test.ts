import { describe, expect, it } from "vitest";
import {
  ERROR_CODE_LIST,
  type ERROR_CODES,
  ErrorBodySchema,
  httpStatusFor,
  isApplicationJsonRpcCode,
  isErrorCode,
  JSONRPC_ERRORS,
  jsonRpcCodeFor,
  RESERVED_JSONRPC_CODES,
} from "./errors.js";

describe("error codes", () => {
  it("maps the codes of docs/api.md#errors to their statuses", () => {
    const expected: Record<string, number> = {
      invalid_json: 400,
      invalid_body: 400,
      invalid_npi: 400,
      invalid_callback_url: 400,
      missing_credentials: 401,
      invalid_credentials: 401,
      insufficient_credits: 402,
      https_required: 403,
      plan_required: 403,
      forbidden: 403,
      key_revoked: 403,
      not_found: 404,
      npi_not_found: 404,
      job_not_found: 404,
      conflict: 409,
      payload_too_large: 413,
      unsupported_media_type: 415,
      rate_limited: 429,
      internal: 500,
    };
    for (const [code, status] of Object.entries(expected)) {
      expect(isErrorCode(code), code).toBe(true);
      expect(httpStatusFor(code as keyof typeof ERROR_CODES), code).toBe(status);
    }
  });

  it("every status is an HTTP error status", () => {
    for (const code of ERROR_CODE_LIST) {
      const status = httpStatusFor(code);
      expect(status >= 400 && status <= 599, code).toBe(true);
    }
  });

  it("does not treat prototype keys as codes", () => {
    expect(isErrorCode("toString")).toBe(false);
    expect(isErrorCode("__proto__")).toBe(false);
    expect(isErrorCode(400)).toBe(false);
  });

  it("JSON-RPC codes: reserved numbers, input errors as invalid params, the rest in the server range", () => {
    expect(JSONRPC_ERRORS).toEqual({
      parse_error: -32700,
      invalid_request: -32600,
      method_not_found: -32601,
      invalid_params: -32602,
      internal_error: -32603,
    });
    expect(jsonRpcCodeFor("invalid_npi")).toBe(-32602);
    expect(jsonRpcCodeFor("internal")).toBe(-32603);
    for (const code of ERROR_CODE_LIST) {
      const n = jsonRpcCodeFor(code);
      const status = httpStatusFor(code);
      if (status === 400) expect(n).toBe(-32602);
      else if (status === 500) expect(n).toBe(-32603);
      else expect(isApplicationJsonRpcCode(n), code).toBe(true);
    }
  });

  it("no HCS code uses a number A2A v1.0 or MCP reserve on the same endpoints", () => {
    for (const n of [-32001, -32002, -32003, -32004, -32005, -32009, -32000, -32042])
      expect(isApplicationJsonRpcCode(n), String(n)).toBe(false);
    const used = new Set(ERROR_CODE_LIST.map(jsonRpcCodeFor));
    for (const n of RESERVED_JSONRPC_CODES) expect(used.has(n), String(n)).toBe(false);
  });

  it("error body schema accepts the documented shape and rejects unknown codes", () => {
    const body = {
      error: {
        code: "invalid_npi",
        message: "npi must be 10 digits with a valid check digit",
        request_id: "r1",
        details: {},
      },
    };
    expect(ErrorBodySchema.parse(body)).toEqual(body);
    expect(ErrorBodySchema.safeParse({ error: { ...body.error, code: "nope" } }).success).toBe(false);
  });
});
