import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { httpRequestTo } from "../../lab/https-client.js";
import { samplePracticesEnv, startSamplePractices } from "../../sample-practices/index.js";
import { createSecretBox } from "../../secrets/master-key.js";
import { openStore } from "../../store/store.js";
import { certificateHosts, ensureSelfManagedTls } from "../../tls/tls-material.js";
import { createTestSchema, TEST_PG_URL } from "../postgres.js";
import { Cluster, type Role, type ServerBin } from "./cluster.js";
import { DatabaseLink, FaultInjector, type FaultRecord, sleep } from "./faults.js";
import {
  auditEventCount,
  auditVerifies,
  balancesEqualLedgers,
  chargesAudited,
  cliRunner,
  jobsOnce,
  jobsSettled,
  memoryFlat,
  memoryOf,
  noCrashes,
  noServerErrors,
  type Verdict,
} from "./invariants.js";
import { startSoakReceiver } from "./receiver.js";
import { setUpAccounts, Traffic } from "./traffic.js";

export interface SoakOptions {
  /** How long traffic runs and faults are injected (the settle and the checks come after). */
  readonly durationS: number;
  readonly bin: ServerBin;
  /** First three octets of the sample practices' loopback addresses (each concurrent soak its own). */
  readonly loopbackPrefix: string;
  readonly accounts?: number;
  /** Told of progress (a line at each fault); default: nothing. */
  readonly log?: (line: string) => void;
}

export interface SoakResult {
  readonly ok: boolean;
  readonly invariants: readonly Verdict[];
  /** The figures, as lines to print. */
  readonly figures: readonly string[];
  readonly faults: readonly FaultRecord[];
}

const ROLES: readonly Role[] = ["serve", "serve", "serve", "worker", "worker"];
const PUBLIC_URL = "https://hcs-soak.test";

/**
 * The distributed setup under mixed traffic and faults (docs/performance.md#soak): 3 `hcs-server serve --no-worker`
 * and 2 `hcs-server worker` processes on one PostgreSQL database — a schema the soak creates and drops, reached by
 * every process through a TCP proxy so outages are made there and the machine's PostgreSQL is never restarted —
 * sharing one master key, one public URL and one TLS CA, each on its own data directory. Traffic from several
 * accounts (lookups, batches, scan dispatches with webhooks to a loopback receiver, signed scanner uploads, portal
 * pages) runs for `durationS` while faults are injected on a schedule (kill -9 of each process in turn, backends
 * terminated, a disconnect storm, the database blackholed 10 s, a database restart); then the jobs settle and the
 * invariants are checked.
 */
export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const log = o.log ?? (() => {});
  const baseDir = mkdtempSync(join(tmpdir(), "hcs-soak-"));
  const schema = await createTestSchema();
  const pgUrl = new URL(TEST_PG_URL);
  const link = await DatabaseLink.open({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
  const applicationName = `hcs_soak_${randomBytes(4).toString("hex")}`;
  const proxied = new URL(TEST_PG_URL);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(link.port);
  proxied.searchParams.set("options", `-c search_path=${schema.schema}`);
  proxied.searchParams.set("application_name", applicationName);
  const direct = new URL(TEST_PG_URL);
  direct.searchParams.set("options", `-c search_path=${schema.schema}`);
  const masterKey = randomBytes(32);
  const samples = await startSamplePractices({ loopbackPrefix: o.loopbackPrefix });
  const receiver = await startSoakReceiver();
  const tlsTemplate = join(baseDir, "tls-template");
  ensureSelfManagedTls(tlsTemplate, certificateHosts("127.0.0.1", PUBLIC_URL));
  const env = {
    DATABASE_URL: proxied.toString(),
    HCS_MASTER_KEY: masterKey.toString("hex"),
    HCS_PUBLIC_URL: PUBLIC_URL,
    HCS_PORT: "0",
    HCS_LOG_LEVEL: "warn",
    HCS_CHECKPOINT_INTERVAL_S: "5",
    HCS_JOB_LEASE_MS: "4000",
    HCS_WORKER_CONCURRENCY: "4",
    HCS_WEBHOOK_RETRY_BASE_MS: "500",
    ...samplePracticesEnv(samples, baseDir, receiver.caPem),
  };
  const cluster = new Cluster({ bin: o.bin, env, baseDir, tlsTemplate, roles: ROLES });
  const store = openStore({ engine: "postgres", url: TEST_PG_URL, schema: schema.schema });
  let faults: FaultInjector | null = null;
  let traffic: Traffic | null = null;
  let sampler: NodeJS.Timeout | null = null;
  try {
    await cluster.startAll();
    log(`cluster up: ${cluster.slots.map((s) => s.name).join(", ")}`);
    const deps = { store, now: () => new Date(), secrets: createSecretBox(masterKey) };
    const accounts = await setUpAccounts(deps, {
      count: o.accounts ?? 4,
      samples: samples.practices,
      receiver,
      portalUsers: 2,
    });
    const accountIds = accounts.map((a) => a.accountId);
    const ca = cluster.caPem();
    traffic = new Traffic({ accounts, urls: () => cluster.liveUrls(), ca, receiver });
    const startedAt = Date.now();
    faults = new FaultInjector({ cluster, link, adminUrl: TEST_PG_URL, applicationName, startedAt });
    await faults.connect();
    sampler = setInterval(() => cluster.sampleMemory(), 2_000);
    cluster.sampleMemory();
    traffic.start();

    // Faults from after a warm-up to before a quiet tail, one after another with a pause between them.
    const durationMs = o.durationS * 1000;
    const edge = Math.max(10_000, 0.1 * durationMs);
    const gap = Math.min(30_000, Math.max(8_000, durationMs / 15));
    await sleep(edge);
    while (Date.now() - startedAt < durationMs - edge - 10_000) {
      const f = await faults.injectNext();
      log(`${f.at.toFixed(0).padStart(4)} s  ${f.kind} ${f.detail} (${(f.ms / 1000).toFixed(1)} s)`);
      await sleep(gap);
    }
    await sleep(Math.max(0, durationMs - (Date.now() - startedAt)));
    await traffic.stop();
    const soakMs = Date.now() - startedAt;
    log("traffic stopped; settling");

    // Settle: every slot up, every job ended and delivered (retries back off; a job's lease expires after 4 s).
    const settleFrom = Date.now();
    while (Date.now() - settleFrom < 180_000) {
      const up = cluster.slots.every((s) => s.lives.at(-1)?.endedAt === null);
      if (up && (await jobsSettled(store, accountIds, receiver.deliveries))) break;
      await sleep(1_000);
    }
    const settleS = (Date.now() - settleFrom) / 1000;
    // The last events sequenced and signed (a checkpoint every 5 s).
    await sleep(7_000);
    clearInterval(sampler);
    sampler = null;

    const keys = await Promise.all(
      cluster
        .liveUrls()
        .map(async (url) => (await httpRequestTo(`${url}/.well-known/hcs-audit-log-key`, { ca })).text.trim()),
    );
    // The auditor's `audit verify` runs from a data directory of its own (operator commands need one to exist).
    const auditorDir = join(baseDir, "auditor");
    mkdirSync(auditorDir, { mode: 0o700 });
    const verify = await auditVerifies(
      keys,
      cliRunner(o.bin, { DATABASE_URL: direct.toString(), HCS_DATA_DIR: auditorDir }),
    );
    const invariants: Verdict[] = [
      await balancesEqualLedgers(store, accountIds),
      await chargesAudited(store, accountIds),
      await jobsOnce(store, accountIds, traffic, receiver.deliveries),
      noServerErrors(traffic, cluster.slots),
      verify,
      memoryFlat(cluster.slots, soakMs),
      noCrashes(cluster.slots),
    ];
    const figures = figuresOf({
      durationS: soakMs / 1000,
      settleS,
      traffic,
      faults: faults.injected,
      cluster,
      events: await auditEventCount(store),
      deliveries: receiver.deliveries.length,
    });
    return { ok: invariants.every((v) => v.ok), invariants, figures, faults: faults.injected };
  } finally {
    if (sampler) clearInterval(sampler);
    await traffic?.stop();
    await cluster.stopAll();
    await faults?.close().catch(() => {});
    await store.close();
    await link.close();
    await Promise.all([samples.stop(), receiver.close()]);
    await schema.drop();
    rmSync(baseDir, { recursive: true, force: true });
  }
}

const percentile = (xs: readonly number[], p: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

function figuresOf(r: {
  durationS: number;
  settleS: number;
  traffic: Traffic;
  faults: readonly FaultRecord[];
  cluster: Cluster;
  events: number;
  deliveries: number;
}): string[] {
  const lines = [
    `soak: ${r.durationS.toFixed(0)} s of traffic and faults, then ${r.settleS.toFixed(0)} s to settle; 3 serve + 2 worker processes on one PostgreSQL`,
    "",
    "traffic       requests   req/s   p50 ms   p99 ms   answers",
  ];
  for (const [kind, t] of r.traffic.tallies) {
    const answers = [...t.statuses]
      .sort()
      .map(([s, n]) => `${s}: ${n}`)
      .join(", ");
    lines.push(
      `${kind.padEnd(12)} ${String(t.total).padStart(9)} ${(t.total / r.durationS).toFixed(1).padStart(7)} ${percentile(t.latenciesMs, 50).toFixed(0).padStart(8)} ${percentile(t.latenciesMs, 99).toFixed(0).padStart(8)}   ${answers}`,
    );
  }
  lines.push("", `faults: ${r.faults.length}`);
  for (const f of r.faults)
    lines.push(
      `  ${f.at.toFixed(0).padStart(4)} s  ${f.kind.padEnd(19)} ${f.detail.padEnd(14)} ${(f.ms / 1000).toFixed(1)} s`,
    );
  lines.push(
    "",
    `audit events: ${r.events}; webhook deliveries received: ${r.deliveries}`,
    "",
    "process     lives   RSS MiB: first  middle  last  peak (longest life)",
  );
  for (const slot of r.cluster.slots) {
    const longest = [...slot.lives].sort(
      (a, b) => (b.endedAt ?? Date.now()) - b.startedAt - ((a.endedAt ?? Date.now()) - a.startedAt),
    )[0];
    const m = longest ? memoryOf(longest) : null;
    lines.push(
      `${slot.name.padEnd(11)} ${String(slot.lives.length).padStart(5)}   ${m ? [m.first, m.middle, m.last, m.peak].map((x) => x.toFixed(0).padStart(6)).join("  ") : "-"}`,
    );
  }
  return lines;
}

/** The result as printed: the figures, then each invariant's pass or fail. */
export function formatSoak(result: SoakResult): string {
  return [
    ...result.figures,
    "",
    ...result.invariants.map((v) => `${v.ok ? "PASS" : "FAIL"}  ${v.name}: ${v.detail}`),
    "",
    result.ok ? "soak PASSED" : "soak FAILED",
  ].join("\n");
}
