import { createHash, randomBytes } from "node:crypto";
import { canonicalJson } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import {
  type AuditEvent,
  auditLeafHash,
  auditRecordJson,
  auditRecordOf,
  eventRecordJson,
  newAuditSalt,
  outcomeOf,
} from "./audit.js";

const sample: AuditEvent = {
  at: "2026-11-23T10:00:00.000Z",
  request_id: "0b5f3c1e-6a7d-4a8e-9c2b-1f0e5d4c3b2a:17",
  actor_key_id: "key_7f3a",
  actor_account_id: "acc_1",
  action: "hipaa.grade",
  transport: "jsonrpc",
  resource: "practice:1234567893",
  outcome: "success",
  status: 200,
  code: null,
  client_ip: "::ffff:127.0.0.1",
  duration_ms: 1.234,
};

/** Strings a hostile or unusual request could put in an event: quotes, controls, non-BMP, lone surrogates. */
const awkward = ['"', "\\", "\n\t\u0000\u001f", "é😀", "\ud800", "</script>", "", "a".repeat(300)];

const randomEvent = (n: number): AuditEvent => {
  const pick = (i: number) => awkward[(n + i) % awkward.length]!;
  return {
    at: new Date(1_700_000_000_000 + n * 977).toISOString(),
    request_id: `${randomBytes(6).toString("hex")}${pick(0)}`,
    actor_key_id: n % 3 === 0 ? null : `key_${pick(1)}`,
    actor_account_id: n % 4 === 0 ? null : `acc_${n}`,
    action: n % 2 ? "hipaa.grade" : `POST /v1/${pick(2)}`,
    transport: ["rest", "jsonrpc", "mcp", "a2a"][n % 4]!,
    resource: n % 5 === 0 ? null : `practice:${pick(3)}`,
    outcome: outcomeOf([200, 402, 429, 500][n % 4]!),
    status: [200, 402, 429, 500][n % 4]!,
    code: [null, "insufficient_credits", "rate_limited", `internal${pick(4)}`][n % 4]!,
    client_ip: n % 2 ? "127.0.0.1" : "::1",
    duration_ms: [0, 0.001, 12.5, 1e6, -0, 1 / 3][n % 6]!,
  };
};

describe("audit record v1 hashing", () => {
  const recordOf = (e: AuditEvent) => auditRecordOf(e, newAuditSalt());

  it("serializes a record exactly as canonical JSON does, whatever its strings hold", () => {
    const r = recordOf(sample);
    expect(auditRecordJson(r)).toBe(canonicalJson(r));
    for (let n = 0; n < 500; n++) {
      const record = recordOf(randomEvent(n));
      expect(auditRecordJson(record)).toBe(canonicalJson(record));
    }
  });

  it("writes an event's record straight from its fields as canonical JSON writes the record, operator or not", () => {
    for (let n = 0; n < 500; n++) {
      const salt = newAuditSalt();
      const e = { ...randomEvent(n), actor_operator: n % 3 === 0 ? null : n % 3 === 1 ? undefined : awkward[n % 8]! };
      expect(eventRecordJson(e, salt)).toBe(canonicalJson(auditRecordOf(e, salt)));
    }
    for (const [field, value] of [
      ["at", null],
      ["request_id", undefined],
      ["action", 7],
      ["transport", null],
      ["outcome", null],
      ["status", 200.5],
      ["status", "200"],
    ] as const)
      expect(() => eventRecordJson({ ...sample, [field]: value } as never, "00")).toThrow(/audit record without/);
  });

  it("holds the operation, actor, outcome, code, time, request id and salt — never the address or duration", () => {
    const r = recordOf(sample);
    const parsed = JSON.parse(auditRecordJson(r));
    expect(Object.keys(parsed).sort()).toEqual(Object.keys(r).sort());
    expect(parsed).toMatchObject({
      v: 1,
      operation: "hipaa.grade",
      actor: { key_id: "key_7f3a", account_id: "acc_1" },
    });
    expect(auditRecordJson(r)).not.toContain("127.0.0.1");
    // The salt is random hex: look for the values as JSON values, not as substrings a salt may hold ("99").
    const withContext = auditRecordJson(recordOf({ ...sample, client_ip: "10.9.9.9", duration_ms: 99 }));
    expect(withContext).not.toContain("10.9.9.9");
    expect(withContext).not.toMatch(/:99[,}]/);
  });

  it("names an operator command's OS user in the actor only when set: records without one hash as before", () => {
    const salt = "0".repeat(32);
    // The v1 text of a record without an operator, written out: what every event before operator commands hashed.
    expect(auditRecordJson(auditRecordOf({ ...sample, actor_operator: null }, salt))).toBe(
      '{"actor":{"account_id":"acc_1","key_id":"key_7f3a"},"code":null,"operation":"hipaa.grade",' +
        '"outcome":"success","request_id":"0b5f3c1e-6a7d-4a8e-9c2b-1f0e5d4c3b2a:17","resource":"practice:1234567893",' +
        `"salt":"${salt}","status":200,"time":"2026-11-23T10:00:00.000Z","transport":"jsonrpc","v":1}`,
    );
    expect(auditRecordOf(sample, salt)).toEqual(auditRecordOf({ ...sample, actor_operator: null }, salt));
    const cli = { ...sample, transport: "cli", actor_key_id: null, action: "operator.keys.revoke" };
    for (const operator of ["alice", ...awkward.filter((a) => a !== "")]) {
      const r = auditRecordOf({ ...cli, actor_operator: operator }, salt);
      expect(r.actor).toEqual({ account_id: "acc_1", key_id: null, operator });
      expect(auditRecordJson(r)).toBe(canonicalJson(r));
    }
    const named = auditRecordOf({ ...cli, actor_operator: "alice" }, salt);
    expect(auditLeafHash(named)).not.toBe(auditLeafHash(auditRecordOf({ ...cli, actor_operator: "bob" }, salt)));
    expect(auditLeafHash(named)).not.toBe(auditLeafHash(auditRecordOf(cli, salt)));
  });

  it("salts every record afresh: equal events hash differently", () => {
    const salts = new Set(Array.from({ length: 1000 }, () => newAuditSalt()));
    expect(salts.size).toBe(1000);
    expect([...salts].every((x) => /^[0-9a-f]{32}$/.test(x))).toBe(true);
    expect(auditLeafHash(recordOf(sample))).not.toBe(auditLeafHash(recordOf(sample)));
  });

  it("is the RFC 9162 leaf hash: SHA-256 of 0x00 then the canonical JSON", () => {
    for (let n = 0; n < 50; n++) {
      const r = recordOf(randomEvent(n));
      const expected = createHash("sha256")
        .update(Buffer.from([0]))
        .update(canonicalJson(r), "utf8")
        .digest("hex");
      expect(auditLeafHash(r)).toBe(expected);
    }
    // Any change to the record changes its hash.
    const r = recordOf(sample);
    expect(auditLeafHash({ ...r, status: 201 })).not.toBe(auditLeafHash(r));
    expect(auditLeafHash({ ...r, code: "internal" })).not.toBe(auditLeafHash(r));
  });
});
