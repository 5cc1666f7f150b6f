import { describe, expect, it } from "vitest";
import { EVIDENCE_OPERATIONS } from "../../audit/evidence-operations.js";
import { auditLeafHash, auditRecordOf } from "../../services/audit.js";
import { receiverOf } from "../../webhooks/receiver.js";
import { receiverOfV5 } from "./005-webhook-receiver.js";
import { v1LeafHash } from "./008-audit-record-v1.js";
import { EVIDENCE_OPERATIONS_V26 } from "./026-audit-append-indexes.js";

// Migrations import nothing outside store/ (docs/architecture.md "Layers and the arrows between them"): what they
// took from live code is frozen in them. These tests are the tripwires: when the live rule moves away from a frozen
// copy, the data that migration wrote no longer matches what the code expects, and a new migration must follow.

describe("what migrations froze of live code", () => {
  it("008's v1 leaf hash is the live serializer's for a v1 record without an operator", () => {
    const rows = [
      {
        at: "2026-11-23T10:00:00.000Z",
        request_id: "req_1",
        actor_key_id: "key_1",
        actor_account_id: "acct_1",
        action: "getGrade",
        transport: "rest",
        resource: "practice:1234567893",
        outcome: "success",
      },
      {
        at: "2026-11-23T10:00:01.123Z",
        request_id: 'r"\\\u2028é',
        actor_key_id: null,
        actor_account_id: null,
        action: "dispatchScan",
        transport: "jsonrpc",
        resource: null,
        outcome: "denied",
      },
    ];
    for (const [i, row] of rows.entries()) {
      const salt = `${i}`.repeat(32);
      const status = i === 0 ? 200 : 402;
      expect(v1LeafHash(row, status, salt)).toBe(auditLeafHash(auditRecordOf({ ...row, status, code: null }, salt)));
    }
  });

  it("005's receiver is the live receiverOf", () => {
    for (const url of [
      "https://Hooks.Example.test:443/a?b",
      "https://127.0.0.1:8443/x",
      "http://[::1]:80/",
      "not a url",
    ])
      expect(receiverOfV5(url)).toBe(receiverOf(url));
  });

  it("026's evidence operations are the live list (a new one needs a migration that files its events)", () => {
    expect([...EVIDENCE_OPERATIONS_V26]).toEqual([...EVIDENCE_OPERATIONS]);
  });
});
