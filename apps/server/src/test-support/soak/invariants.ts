import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { sql } from "kysely";
import type { Store } from "../../store/store.js";
import { ledgerAgreement } from "../ledger-agreement.js";
import type { Incarnation, ServerBin, Slot } from "./cluster.js";
import type { SoakDelivery } from "./receiver.js";
import type { Traffic } from "./traffic.js";

export interface Verdict {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

const verdict = (name: string, problems: readonly string[], fine: string): Verdict => ({
  name,
  ok: problems.length === 0,
  detail: problems.length === 0 ? fine : `${problems.length} problem(s): ${problems.slice(0, 5).join("; ")}`,
});

/** Every account's balance equals the sum of its ledger, read from one snapshot. */
export async function balancesEqualLedgers(store: Store, accountIds: readonly string[]): Promise<Verdict> {
  const rows = await ledgerAgreement(store, accountIds);
  const off = rows.filter((r) => r.balance !== r.ledger).map((r) => `${r.accountId}: ${r.balance} ≠ ${r.ledger}`);
  const entries = rows.reduce((n, r) => n + r.rows.length, 0);
  return verdict("every balance equals its ledger", off, `${rows.length} accounts, ${entries} ledger rows`);
}

/**
 * Every charge has its audit event: a charge under a request id (lookups, batches) an event of that request, a
 * scan's charge (`job:<id>`) an accepted dispatch (hipaa.scan, 202) of its account — one for one — and every
 * refund its job's refundScan event.
 */
export async function chargesAudited(store: Store, accountIds: readonly string[]): Promise<Verdict> {
  const problems: string[] = [];
  const unaudited = await store.db
    .selectFrom("credit_ledger as l")
    .select(["l.reference", "l.operation"])
    .where("l.account_id", "in", accountIds)
    .where("l.delta", "<", 0)
    .where("l.reference", "not like", "job:%")
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("audit_events as e").select("e.id").whereRef("e.request_id", "=", "l.reference"))),
    )
    .execute();
  for (const u of unaudited) problems.push(`${u.operation} charge ${u.reference} has no audit event`);
  let scanCharges = 0;
  for (const accountId of accountIds) {
    const charges = await store.db
      .selectFrom("credit_ledger")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("account_id", "=", accountId)
      .where("operation", "=", "full_scan")
      .where("delta", "<", 0)
      .executeTakeFirstOrThrow();
    const accepted = await store.db
      .selectFrom("audit_trail")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("actor_account_id", "=", accountId)
      .where("action", "=", "hipaa.scan")
      .where("status", "=", 202)
      .executeTakeFirstOrThrow();
    scanCharges += Number(charges.n);
    if (Number(charges.n) !== Number(accepted.n))
      problems.push(`${accountId}: ${charges.n} scan charges, ${accepted.n} accepted dispatches audited`);
  }
  const refunds = await store.db
    .selectFrom("credit_ledger as l")
    .select("l.reference")
    .where("l.account_id", "in", accountIds)
    .where("l.operation", "=", "refund")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("audit_trail as e")
            .select("e.id")
            .where("e.action", "=", "refundScan")
            .whereRef("e.resource", "=", "l.reference"),
        ),
      ),
    )
    .execute();
  for (const r of refunds) problems.push(`refund ${r.reference} has no refundScan event`);
  const charged = await store.db
    .selectFrom("credit_ledger")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("account_id", "in", accountIds)
    .where("delta", "<", 0)
    .executeTakeFirstOrThrow();
  return verdict(
    "every charge has its audit event",
    problems,
    `${charged.n} charges (${scanCharges} scans), each with its event; every refund with its refundScan`,
  );
}

/** The jobs of the soak's accounts as the store has them, with their completion events, refunds and deliveries. */
async function jobStates(store: Store, accountIds: readonly string[]) {
  const jobs = await store.db
    .selectFrom("jobs")
    .select(["id", "account_id", "status", "credits_charged"])
    .where("account_id", "in", accountIds)
    .execute();
  const counts = async (q: Promise<{ ref: string | null; n: number | string }[]>) =>
    new Map((await q).map((r) => [String(r.ref), Number(r.n)]));
  const completions = await counts(
    store.db
      .selectFrom("audit_trail")
      .select(["resource as ref", (eb) => eb.fn.countAll<string>().as("n")])
      .where("action", "=", "completeScan")
      .where("actor_account_id", "in", accountIds)
      .groupBy("resource")
      .execute(),
  );
  const refundEvents = await counts(
    store.db
      .selectFrom("audit_trail")
      .select(["resource as ref", (eb) => eb.fn.countAll<string>().as("n")])
      .where("action", "=", "refundScan")
      .where("actor_account_id", "in", accountIds)
      .groupBy("resource")
      .execute(),
  );
  const refunds = await counts(
    store.db
      .selectFrom("credit_ledger")
      .select(["reference as ref", (eb) => eb.fn.countAll<string>().as("n")])
      .where("operation", "=", "refund")
      .where("account_id", "in", accountIds)
      .groupBy("reference")
      .execute(),
  );
  const outbox = await counts(
    store.db
      .selectFrom("webhook_deliveries")
      .select(["job_id as ref", (eb) => eb.fn.countAll<string>().as("n")])
      .where("account_id", "in", accountIds)
      .groupBy("job_id")
      .execute(),
  );
  return { jobs, completions, refundEvents, refunds, outbox };
}

/** Whether every job of the soak has ended and been delivered to its receiver (what the settle phase waits for). */
export async function jobsSettled(
  store: Store,
  accountIds: readonly string[],
  deliveries: readonly SoakDelivery[],
): Promise<boolean> {
  const { jobs } = await jobStates(store, accountIds);
  const delivered = new Set(deliveries.filter((d) => d.verified).map((d) => d.jobId));
  return jobs.every((j) => (j.status === "completed" || j.status === "failed") && delivered.has(j.id));
}

/**
 * Every job completed or failed exactly once — a completed job has one completion event and no refund, a failed one
 * one refund and one refundScan event — with one webhook in the outbox, delivered (signature verified) at least once
 * with its final event; and every job a dispatch was answered 202 for exists.
 */
export async function jobsOnce(
  store: Store,
  accountIds: readonly string[],
  traffic: Traffic,
  deliveries: readonly SoakDelivery[],
): Promise<Verdict> {
  const { jobs, completions, refundEvents, refunds, outbox } = await jobStates(store, accountIds);
  const problems: string[] = [];
  const byId = new Map(jobs.map((j) => [j.id, j]));
  for (const id of traffic.jobs.keys())
    if (!byId.has(id)) problems.push(`job ${id} was accepted (202) and is not stored`);
  const verified = new Map<string, Set<string>>();
  for (const d of deliveries) {
    if (!d.verified || !d.jobId) continue;
    if (!verified.has(d.jobId)) verified.set(d.jobId, new Set());
    verified.get(d.jobId)!.add(d.event);
  }
  let completed = 0;
  let failed = 0;
  for (const j of jobs) {
    const ref = `job:${j.id}`;
    const [done, refundEvent, refund] = [completions.get(ref) ?? 0, refundEvents.get(ref) ?? 0, refunds.get(ref) ?? 0];
    if (j.status === "completed") {
      completed++;
      if (done !== 1 || refund !== 0 || refundEvent !== 0)
        problems.push(`${j.id} completed with ${done} completion events, ${refund} refunds`);
    } else if (j.status === "failed") {
      failed++;
      const owed = j.credits_charged > 0 ? 1 : 0;
      if (done !== 0 || refund !== owed || refundEvent !== owed)
        problems.push(`${j.id} failed with ${refund} refunds, ${refundEvent} refund events, ${done} completions`);
    } else problems.push(`${j.id} still ${j.status}`);
    if ((outbox.get(j.id) ?? 0) !== 1) problems.push(`${j.id} has ${outbox.get(j.id) ?? 0} webhooks queued`);
    const events = verified.get(j.id);
    if (!events?.has(`job.${j.status}`)) problems.push(`${j.id} (${j.status}): no verified job.${j.status} delivery`);
    else if (events.size > 1) problems.push(`${j.id}: deliveries of ${[...events].join(" and ")}`);
  }
  const delivered = deliveries.filter((d) => d.verified).length;
  return verdict(
    "every job completed or failed exactly once, its webhook delivered",
    problems,
    `${jobs.length} jobs: ${completed} completed, ${failed} failed (refunded); ${delivered} verified deliveries`,
  );
}

/**
 * No answer was a 500 (or any 5xx but 503, the documented answer of an unavailable store). Each one is traced to the
 * error line its process logged under its request id.
 */
export function noServerErrors(traffic: Traffic, slots: readonly Slot[] = []): Verdict {
  const problems: string[] = [];
  for (const [kind, tally] of traffic.tallies)
    for (const [status, n] of tally.statuses)
      if (/^5\d\d$/.test(status) && status !== "503") {
        const traced = tally.unexpected.map((u) => {
          const id = /"request_id":"([^"]+)"/.exec(u)?.[1];
          const logged = id
            ? slots.flatMap((s) => s.errors.filter((e) => e.includes(id)).map((e) => `${s.name}: ${e}`))
            : [];
          return logged.length > 0 ? `${u} — logged: ${logged.join(" / ")}` : u;
        });
        problems.push(`${kind}: ${n} × ${status} (${traced.join(" | ")})`);
      }
  return verdict("no 500s", problems, "no 5xx but 503 (store unavailable, retryable)");
}

/** `hcs-server audit verify --verifier-key <the key every instance publishes>` passes. */
export async function auditVerifies(
  keys: readonly string[],
  run: (args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>,
): Promise<Verdict & { readonly verify?: Record<string, unknown> }> {
  const distinct = [...new Set(keys)];
  if (distinct.length !== 1)
    return verdict("audit verify passes with the one verifier key", [`instances publish ${distinct.length} keys`], "");
  const r = await run(["--json", "audit", "verify", "--verifier-key", distinct[0]!]);
  let out: Record<string, unknown> = {};
  try {
    out = JSON.parse(r.stdout) as Record<string, unknown>;
  } catch {
    out = {};
  }
  const problems =
    r.code === 0 && out.verified === true
      ? []
      : [`exit ${r.code}: ${r.stdout.slice(0, 400)} ${r.stderr.slice(0, 400)}`];
  return {
    ...verdict(
      "audit verify passes with the one verifier key",
      problems,
      `${out.leaves} leaves, ${out.checkpoints} checkpoints, one key published by every instance`,
    ),
    verify: out,
  };
}

/** Runs the built or source `hcs-server` with `env` and answers its exit code and output. */
export function cliRunner(bin: ServerBin, env: Record<string, string>) {
  const run = promisify(execFile);
  return async (args: string[]) => {
    try {
      const r = await run(process.execPath, [...bin.nodeArgs, bin.script, ...args], {
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", HCS_LOG_LEVEL: "silent", ...env },
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
    }
  };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.floor(s.length / 2)]!;
};

/** One life's memory: its first sample, the medians of its middle and last thirds, its peak (MiB). */
export function memoryOf(life: Incarnation) {
  const mib = life.rss.map((s) => s.mib);
  const third = Math.floor(mib.length / 3);
  return {
    first: mib[0] ?? Number.NaN,
    middle: median(mib.slice(third, 2 * third)),
    last: median(mib.slice(2 * third)),
    peak: Math.max(...mib),
  };
}

/**
 * The memory of each process is flat: for every process that lived at least 40 % of the soak, the median resident
 * size of the last third of its life is at most 25 % (or 24 MiB, whichever is more) above that of its middle third —
 * the first third is its warm-up. Shorter lives (restarted after kill -9) are reported, not judged.
 */
export function memoryFlat(slots: readonly Slot[], soakMs: number): Verdict {
  const problems: string[] = [];
  let judged = 0;
  for (const slot of slots)
    for (const life of slot.lives) {
      const lived = (life.endedAt ?? Date.now()) - life.startedAt;
      if (lived < 0.4 * soakMs || life.rss.length < 9) continue;
      judged++;
      const m = memoryOf(life);
      if (m.last - m.middle > Math.max(0.25 * m.middle, 24))
        problems.push(`${slot.name} (pid ${life.pid}) grew from ${m.middle.toFixed(0)} to ${m.last.toFixed(0)} MiB`);
    }
  if (judged === 0) problems.push("no process lived long enough to judge");
  return verdict("memory of each process flat", problems, `${judged} long-lived processes, none grew`);
}

/** No process ended by itself (only the kill -9s of the schedule and the final stop). */
export function noCrashes(slots: readonly Slot[]): Verdict {
  const problems = slots.flatMap((s) =>
    s.lives
      .filter((l) => l.end?.startsWith("exited"))
      .map((l) => `${s.name} pid ${l.pid} ${l.end}: ${s.tail.slice(-300)}`),
  );
  return verdict("no process died by itself", problems, "every process ended by kill -9 or the final stop");
}

/** How many audit events the soak's log holds (a figure). */
export async function auditEventCount(store: Store): Promise<number> {
  const r = await sql<{ n: string }>`select count(*) as n from audit_events`.execute(store.db);
  return Number(r.rows[0]?.n ?? 0);
}
