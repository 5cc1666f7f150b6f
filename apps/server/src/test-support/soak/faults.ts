import pg from "pg";
import { startTcpProxy, type TcpProxy } from "../tcp-proxy.js";
import type { Cluster } from "./cluster.js";

export type FaultKind = "kill_9" | "terminate_backends" | "disconnect_storm" | "blackhole_10s" | "database_restart";

export interface FaultRecord {
  readonly kind: FaultKind;
  /** Seconds since the soak started. */
  readonly at: number;
  readonly ms: number;
  readonly detail: string;
}

/**
 * The database as the cluster reaches it: every process connects through this TCP proxy, never to PostgreSQL
 * itself, so an outage can be made without touching the machine's PostgreSQL (which other tests share). A
 * "restart" closes the proxy — every connection cut at once, new ones refused (ECONNREFUSED) — and opens it again on
 * the same port a few seconds later, which is what the clients of a restarting PostgreSQL see.
 */
export class DatabaseLink {
  private constructor(
    private proxy: TcpProxy,
    private readonly target: { host: string; port: number },
  ) {}

  static async open(target: { host: string; port: number }): Promise<DatabaseLink> {
    return new DatabaseLink(await startTcpProxy(target), target);
  }

  get port(): number {
    return this.proxy.port;
  }

  /** Every byte held in both directions and new connections left unanswered for `ms`, then delivered. */
  async blackhole(ms: number): Promise<void> {
    this.proxy.blackhole();
    await sleep(ms);
    this.proxy.restore();
  }

  /** All connections cut and new ones refused for `downMs`, then accepted again on the same port. */
  async restart(downMs: number): Promise<void> {
    const port = this.proxy.port;
    await this.proxy.close();
    await sleep(downMs);
    this.proxy = await startTcpProxy(this.target, port);
  }

  close(): Promise<void> {
    return this.proxy.close();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The faults of a soak, injected one after another on a schedule: kill -9 of a process (each slot in turn, started
 * again at once), every backend of the cluster terminated (pg_terminate_backend, by the cluster's application_name),
 * a storm of such terminations (every 150 ms for 5 s), the database blackholed for 10 s, and a database restart
 * (the proxy closed for 4 s).
 */
export class FaultInjector {
  readonly injected: FaultRecord[] = [];
  private readonly admin: pg.Client;
  private victim = 0;
  private readonly order: readonly FaultKind[] = [
    "kill_9",
    "terminate_backends",
    "blackhole_10s",
    "disconnect_storm",
    "database_restart",
    "kill_9",
  ];
  private next = 0;

  constructor(
    private readonly o: {
      readonly cluster: Cluster;
      readonly link: DatabaseLink;
      /** PostgreSQL itself (not through the proxy): where the faults are injected from. */
      readonly adminUrl: string;
      readonly applicationName: string;
      readonly startedAt: number;
    },
  ) {
    this.admin = new pg.Client({ connectionString: o.adminUrl });
  }

  async connect(): Promise<void> {
    await this.admin.connect();
  }

  /** The next fault of the schedule, waited for until it is over (a killed process back, the database back). */
  async injectNext(): Promise<FaultRecord> {
    const kind = this.order[this.next++ % this.order.length]!;
    const t0 = Date.now();
    let detail = "";
    switch (kind) {
      case "kill_9": {
        // Serving and worker processes in turn: serve-0, worker-0, serve-1, worker-1, serve-2, …
        const serves = this.o.cluster.slots.filter((x) => x.role === "serve");
        const workers = this.o.cluster.slots.filter((x) => x.role === "worker");
        const turns = serves.flatMap((x, i) => (workers[i] ? [x, workers[i]] : [x]));
        const slot = turns[this.victim++ % turns.length]!;
        detail = slot.name;
        await this.o.cluster.kill(slot);
        break;
      }
      case "terminate_backends":
        detail = `${await this.terminateBackends()} backends`;
        break;
      case "disconnect_storm": {
        let n = 0;
        for (const end = Date.now() + 5_000; Date.now() < end; await sleep(150)) n += await this.terminateBackends();
        detail = `${n} backends`;
        break;
      }
      case "blackhole_10s":
        await this.o.link.blackhole(10_000);
        break;
      case "database_restart":
        await this.o.link.restart(4_000);
        detail = "down 4 s";
        break;
    }
    const record = { kind, at: (t0 - this.o.startedAt) / 1000, ms: Date.now() - t0, detail };
    this.injected.push(record);
    return record;
  }

  private async terminateBackends(): Promise<number> {
    const r = await this.admin.query<{ n: string }>(
      "select count(*) filter (where pg_terminate_backend(pid)) as n from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()",
      [this.o.applicationName],
    );
    return Number(r.rows[0]?.n ?? 0);
  }

  close(): Promise<void> {
    return this.admin.end();
  }
}
