// The settlement writer thread's messages (settlement-thread.ts ⇄ settlement-worker.ts) as compact JSON text: each
// settlement a positional array instead of an object with its keys, and the rate-limit counters left out (the
// reader derives them from the policy and the time, as settle.ts did). In the JSON-RPC batch row of
// bench/grade-lookup a group of ~250 settlements took the serving thread ~2 ms to stringify as objects (14-16 % of its
// time) and the writer ~1.2 ms to parse; as arrays the text is half the size and both cost about a third
// (docs/performance.md#the-settlement-writer-thread-only-from-three-cpus). Plain data both ways: nothing here may
// throw on a well-formed message.
import { type RateWindow, windowCounters } from "../http/rate-limit.js";
import type { AuditEvent } from "../services/audit.js";
import type { SettlementWrite, SettlementWritten } from "./settle-writes.js";

/** A group of settlements sent to the writer thread; `id` pairs it with its reply. */
export interface WorkerRequest {
  readonly id: number;
  /** When the group's oldest call asked to be settled (Date.now()): the lock wait's budget counts from then. */
  readonly askedAt: number;
  readonly writes: readonly SettlementWrite[];
}

export type WorkerResult =
  | { readonly written: SettlementWritten }
  | { readonly error: { readonly message: string; readonly code: string | null } };

export interface WorkerReply {
  readonly id: number;
  readonly results: readonly WorkerResult[];
}

type WireWindows = [limit: number, windowMs: number][];
type WireCharge = [accountId: string, amount: number, operation: string, reference: string | null, at: string];
/** The audit flags as bits (answered 1, limited 2, short 4), then the event's fields in AuditEvent's order. */
type WireAudit = [
  flags: number,
  at: string,
  requestId: string,
  actorKeyId: string | null,
  actorAccountId: string | null,
  action: string,
  transport: string,
  resource: string | null,
  outcome: AuditEvent["outcome"],
  status: number,
  code: string | null,
  clientIp: string,
  durationMs: number,
  actorOperator: string | null,
];
type WireWrite = [
  bucket: string | null,
  windows: WireWindows | null,
  nowMs: number,
  charge: WireCharge | null,
  status: number,
  code: string | null,
  audit: WireAudit | null,
];
/** A written settlement: [0, counts, charged (1, 0, or -1 when none was tried), balance]; a failed one: [1, message, code]. */
type WireResult = [0, number[] | null, 1 | 0 | -1, number] | [1, string, string | null];

export function encodeRequest(request: WorkerRequest): string {
  const writes: WireWrite[] = new Array(request.writes.length);
  for (let i = 0; i < writes.length; i++) writes[i] = wireWrite(request.writes[i]!);
  return JSON.stringify([request.id, writes, request.askedAt]);
}

export function decodeRequest(text: string): WorkerRequest {
  const [id, wire, askedAt] = JSON.parse(text) as [number, WireWrite[], number];
  const writes: SettlementWrite[] = new Array(wire.length);
  for (let i = 0; i < wire.length; i++) writes[i] = writeOf(wire[i]!);
  return { id, askedAt, writes };
}

export function encodeReply(reply: WorkerReply): string {
  const results: WireResult[] = new Array(reply.results.length);
  for (let i = 0; i < results.length; i++) {
    const r = reply.results[i]!;
    if ("error" in r) results[i] = [1, r.error.message, r.error.code];
    else {
      const charge = r.written.charge;
      results[i] = [0, r.written.counts, charge ? (charge.charged ? 1 : 0) : -1, charge ? charge.balance : 0];
    }
  }
  return JSON.stringify([reply.id, results]);
}

export function decodeReply(text: string): WorkerReply {
  const [id, wire] = JSON.parse(text) as [number, WireResult[]];
  const results: WorkerResult[] = new Array(wire.length);
  for (let i = 0; i < wire.length; i++) {
    const r = wire[i]!;
    if (r[0] === 1) results[i] = { error: { message: r[1], code: r[2] } };
    else
      results[i] = {
        written: {
          counts: r[1],
          charge:
            r[2] === -1 ? null : r[2] === 1 ? { charged: true, balance: r[3] } : { charged: false, balance: r[3] },
        },
      };
  }
  return { id, results };
}

function wireWrite(w: SettlementWrite): WireWrite {
  const c = w.charge;
  const a = w.audit;
  const e = a?.event;
  return [
    w.rate ? w.rate.bucket : null,
    w.rate ? w.rate.windows.map((x) => [x.limit, x.windowMs] as [number, number]) : null,
    w.nowMs,
    c ? [c.accountId, c.amount, c.operation, c.reference, c.at] : null,
    w.status,
    w.code,
    a && e
      ? [
          (a.answered ? 1 : 0) | (a.limited ? 2 : 0) | (a.short ? 4 : 0),
          e.at,
          e.request_id,
          e.actor_key_id,
          e.actor_account_id,
          e.action,
          e.transport,
          e.resource,
          e.outcome,
          e.status,
          e.code,
          e.client_ip,
          e.duration_ms,
          e.actor_operator ?? null,
        ]
      : null,
  ];
}

function writeOf([bucket, windows, nowMs, c, status, code, a]: WireWrite): SettlementWrite {
  const rate =
    bucket !== null && windows !== null
      ? { bucket, windows: windows.map(([limit, windowMs]): RateWindow => ({ limit, windowMs })) }
      : null;
  return {
    rate,
    counters: rate ? windowCounters(rate, nowMs) : null,
    nowMs,
    charge: c ? { accountId: c[0], amount: c[1], operation: c[2], reference: c[3], at: c[4] } : null,
    status,
    code,
    audit: a
      ? { event: eventOf(a), answered: (a[0] & 1) !== 0, limited: (a[0] & 2) !== 0, short: (a[0] & 4) !== 0 }
      : null,
  };
}

function eventOf(a: WireAudit): AuditEvent {
  const event: AuditEvent = {
    at: a[1],
    request_id: a[2],
    actor_key_id: a[3],
    actor_account_id: a[4],
    action: a[5],
    transport: a[6],
    resource: a[7],
    outcome: a[8],
    status: a[9],
    code: a[10],
    client_ip: a[11],
    duration_ms: a[12],
  };
  // Absent and null mean the same (no portal user; the store writes null): null arrives as absent.
  return a[13] === null ? event : { ...event, actor_operator: a[13] };
}
