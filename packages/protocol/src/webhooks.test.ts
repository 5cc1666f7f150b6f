import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseWebhookSignatureHeader, webhookSignedPayload } from "./webhooks.js";

describe("webhook signature header", () => {
  const hex = "ab".repeat(32);

  it("parses t and one or more v1 values", () => {
    expect(parseWebhookSignatureHeader(`t=1700000000,v1=${hex}`)).toEqual({ timestamp: 1700000000, signatures: [hex] });
    expect(parseWebhookSignatureHeader(`t=1,v1=${hex},v1=${"cd".repeat(32)}`)?.signatures).toHaveLength(2);
    expect(parseWebhookSignatureHeader(`t=1, v1=${hex}, v0=ignored`)?.signatures).toEqual([hex]);
  });

  it.each([undefined, null, "", "t=1", `v1=${hex}`, `t=abc,v1=${hex}`, "t=1,v1=XYZ", `t=1,${hex}`, "x".repeat(2000)])(
    "refuses %j",
    (h) => {
      expect(parseWebhookSignatureHeader(h)).toBeNull();
    },
  );

  it("the signed payload is t.body, which a receiver verifies with HMAC-SHA256", () => {
    const body = '{"job_id":"j1"}';
    const t = 1700000000;
    const mac = createHmac("sha256", "whsec_test").update(webhookSignedPayload(t, body)).digest("hex");
    const parsed = parseWebhookSignatureHeader(`t=${t},v1=${mac}`)!;
    expect(parsed.signatures[0]).toBe(createHmac("sha256", "whsec_test").update(`${t}.${body}`).digest("hex"));
  });
});
