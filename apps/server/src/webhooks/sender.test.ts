import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "../lab/webhook-receiver.js";
import type { WebhookDeliveriesTable } from "../store/schema.js";
import { sendWebhook } from "./sender.js";

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiver.setSecret("whsec_test");
});
afterAll(() => receiver.close());

const delivery = (id: string) =>
  ({
    id,
    account_id: "acct",
    url: receiver.url,
    event: "scan.completed",
    body: JSON.stringify({ id }),
  }) as WebhookDeliveriesTable;

describe("sendWebhook certificate trust", () => {
  it("delivers to a receiver whose CA is among the extra CAs", async () => {
    const outcome = await sendWebhook(
      delivery("d1"),
      "whsec_test",
      { allowPrivateTargets: true, extraCaPem: [receiver.caPem], workerId: "w", retryBaseMs: 1000 },
      new Date(),
    );
    expect(outcome).toEqual({ ok: true, status: 204 });
    expect(receiver.received.map((r) => [r.deliveryId, r.verified])).toEqual([["d1", true]]);
  });

  it("refuses a receiver whose certificate no trusted CA issued", async () => {
    const outcome = await sendWebhook(
      delivery("d2"),
      "whsec_test",
      { allowPrivateTargets: true, extraCaPem: [], workerId: "w", retryBaseMs: 1000 },
      new Date(),
    );
    expect(outcome).toMatchObject({ ok: false, status: null, error: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" });
    expect(receiver.received.map((r) => r.deliveryId)).toEqual(["d1"]);
  });
});
