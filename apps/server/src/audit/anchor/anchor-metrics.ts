import { Counter, Gauge, type Registry } from "prom-client";
import type { AnchorSummary } from "./anchor-records.js";

/** Anchoring's Prometheus series. Gauges are set after each round: a scrape never touches the store or the chain. */
export interface AnchorMetrics {
  readonly failures: Counter<"code">;
  readonly transactions: Counter<"kind">;
  observe(summary: AnchorSummary): void;
}

export function registerAnchorMetrics(registry: Registry): AnchorMetrics {
  const registers = [registry];
  const failures = new Counter({
    name: "hcs_audit_anchor_failures_total",
    help: "Anchoring rounds that failed, by error code (anchor_rpc_failed, anchor_wrong_chain, …)",
    labelNames: ["code"],
    registers,
  });
  const transactions = new Counter({
    name: "hcs_audit_anchor_transactions_total",
    help: "Anchoring transactions broadcast: first for a checkpoint, resend (the previous one vanished), replace (it was stuck)",
    labelNames: ["kind"],
    registers,
  });
  const pending = new Gauge({
    name: "hcs_audit_anchor_pending",
    help: "Checkpoints whose anchor is not finalized yet",
    registers,
  });
  const failing = new Gauge({
    name: "hcs_audit_anchor_failing",
    help: "Checkpoints whose last anchoring round failed",
    registers,
  });
  const lastSize = new Gauge({
    name: "hcs_audit_anchor_last_finalized_size",
    help: "Tree size of the largest checkpoint whose anchor is finalized",
    registers,
  });
  const lastAt = new Gauge({
    name: "hcs_audit_anchor_last_finalized_timestamp_seconds",
    help: "When that anchor was seen finalized (Unix seconds)",
    registers,
  });
  return {
    failures,
    transactions,
    observe(summary) {
      pending.set(summary.pending);
      failing.set(summary.failing);
      if (summary.lastFinalized?.finalizedAt) {
        lastSize.set(summary.lastFinalized.size);
        lastAt.set(Date.parse(summary.lastFinalized.finalizedAt) / 1000);
      }
    },
  };
}
