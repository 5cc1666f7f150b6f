import type { KeyObject } from "node:crypto";
import { withNpiCheckDigit } from "@hcs/protocol";
import { httpRequestTo, type RequestOptions, type TestResponse } from "../../lab/https-client.js";
import { inviteUser } from "../../portal/users.js";
import type { SamplePractice } from "../../sample-practices/index.js";
import { issueApiKey } from "../../services/api-keys.js";
import type { ServiceDeps } from "../../services/deps.js";
import { addPractice } from "../../services/practices.js";
import { newAgentKeys, scanDocument, uploadHeaders } from "../agent-client.js";
import { issueTestDeployToken, registerTestAgent } from "../direct-enrolment.js";
import { accountWithKey, gradedPractice } from "../fixtures.js";
import { PortalClient } from "../portal-client.js";
import { PORTAL_TEST_PASSWORD } from "../portal-sign-in.js";
import { sleep } from "./faults.js";
import type { SoakReceiver } from "./receiver.js";

/** One account of the soak: its keys, the practices it looks up, scans and uploads for, its scanner, its portal user. */
export interface SoakAccount {
  readonly accountId: string;
  readonly keys: readonly string[];
  /** Graded practices it looks up (one at a time, and in batches). */
  readonly lookups: readonly string[];
  /** Practices it dispatches scans of: sample practices (the scan completes) and one that does not resolve (fails). */
  readonly scans: readonly string[];
  readonly agent: { readonly agentId: string; readonly privateKey: KeyObject };
  /** A portal viewer's invitation, accepted when the traffic starts. */
  readonly portalInvite: { readonly email: string; readonly token: string } | null;
}

/**
 * The soak's accounts, made through the services on the shared database before the traffic starts: each a
 * Professional bulk-tier account with two keys, three graded practices, a scanner registered for the first of them,
 * sample practices to scan (dealt round the accounts) and one practice whose domain does not resolve.
 */
export async function setUpAccounts(
  deps: ServiceDeps,
  o: { count: number; samples: readonly SamplePractice[]; receiver: SoakReceiver; portalUsers: number },
): Promise<SoakAccount[]> {
  const accounts: SoakAccount[] = [];
  for (let a = 0; a < o.count; a++) {
    const owner = await accountWithKey(deps, {
      plan: "professional",
      tier: "bulk",
      credits: 10_000_000,
      name: `Soak Clinic ${a}`,
    });
    o.receiver.setSecret(owner.accountId, owner.webhookSecret);
    const second = await issueApiKey(deps, { accountId: owner.accountId, label: "soak" });
    const lookups = [0, 1, 2].map((i) => withNpiCheckDigit(String(160_000_000 + a * 100 + i)));
    for (const npi of lookups) await gradedPractice(deps, owner.accountId, npi);
    const scans: string[] = [];
    for (const [i, p] of o.samples.entries()) {
      if (i % o.count !== a) continue;
      await addPractice(deps, {
        npi: p.npi,
        name: p.name,
        domain: p.domain,
        website: p.website,
        accountId: owner.accountId,
      });
      scans.push(p.npi);
    }
    const unreachable = withNpiCheckDigit(String(160_000_000 + a * 100 + 50));
    await addPractice(deps, {
      npi: unreachable,
      name: `Unreachable ${a}`,
      domain: `unreachable-${a}.test`,
      accountId: owner.accountId,
    });
    scans.push(unreachable);
    const issued = await issueTestDeployToken(deps, {
      accountId: owner.accountId,
      keyId: owner.keyId,
      npi: lookups[0]!,
    });
    const keys = newAgentKeys();
    const agent = await registerTestAgent(deps, issued.deploy_token, keys, `soak-host-${a}`);
    let portalInvite: SoakAccount["portalInvite"] = null;
    if (a < o.portalUsers) {
      const email = `viewer${a}@soak-clinic.test`;
      const invitation = await inviteUser(deps, { accountId: owner.accountId, email, role: "viewer", invitedBy: null });
      portalInvite = { email, token: invitation.token };
    }
    accounts.push({
      accountId: owner.accountId,
      keys: [owner.apiKey, second.apiKey],
      lookups,
      scans,
      agent: { agentId: agent.agent_id, privateKey: keys.privateKey },
      portalInvite,
    });
  }
  return accounts;
}

export type TrafficKind = "lookup" | "batch" | "dispatch" | "upload" | "portal";

/** What one kind of traffic got: answers by status (`conn`: no answer — the instance was killed), latencies. */
export class KindTally {
  readonly statuses = new Map<string, number>();
  readonly latenciesMs: number[] = [];
  /** A few answers that were not expected, for the report. */
  readonly unexpected: string[] = [];

  record(status: number | "conn", ms: number, body?: string): void {
    const key = String(status);
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
    this.latenciesMs.push(ms);
    if (typeof status === "number" && status >= 500 && status !== 503 && this.unexpected.length < 5)
      this.unexpected.push(`${status} ${body?.slice(0, 300) ?? ""}`);
  }

  count(status: number | "conn"): number {
    return this.statuses.get(String(status)) ?? 0;
  }

  get total(): number {
    return this.latenciesMs.length;
  }
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

/**
 * The soak's mixed traffic, spread over the serving processes that are up (as a load balancer would): grade lookups,
 * batches, scan dispatches with a callback to the receiver, signed scanner uploads, and portal pages read by viewers.
 * Each loop waits for its answer, then a little, so the load follows what the cluster can take.
 */
export class Traffic {
  readonly tallies = new Map<TrafficKind, KindTally>(
    (["lookup", "batch", "dispatch", "upload", "portal"] as const).map((k) => [k, new KindTally()]),
  );
  /** Every job a dispatch was answered 202 for: its account. */
  readonly jobs = new Map<string, string>();
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly o: {
      readonly accounts: readonly SoakAccount[];
      readonly urls: () => string[];
      readonly ca: string;
      readonly receiver: SoakReceiver;
    },
  ) {}

  private async send(kind: TrafficKind, path: string, options: RequestOptions = {}): Promise<TestResponse | null> {
    const urls = this.o.urls();
    const t0 = performance.now();
    if (urls.length === 0) {
      await sleep(100);
      return null;
    }
    try {
      const res = await httpRequestTo(`${pick(urls)}${path}`, { ca: this.o.ca, timeoutMs: 30_000, ...options });
      this.tallies.get(kind)!.record(res.status, performance.now() - t0, res.text);
      return res;
    } catch {
      this.tallies.get(kind)!.record("conn", performance.now() - t0);
      return null;
    }
  }

  private loop(gapMs: number, step: () => Promise<void>): void {
    this.loops.push(
      (async () => {
        while (this.running) {
          await step();
          await sleep(gapMs);
        }
      })(),
    );
  }

  start(): void {
    this.running = true;
    const { accounts, receiver } = this.o;
    const auth = (a: SoakAccount) => ({ "X-API-Key": pick(a.keys) });
    for (let i = 0; i < 3; i++)
      this.loop(40, async () => {
        const a = pick(accounts);
        await this.send("lookup", `/v1/a2a/grade/${pick(a.lookups)}`, { headers: auth(a) });
      });
    this.loop(400, async () => {
      const a = pick(accounts);
      await this.send("batch", "/v1/a2a/batch", { headers: auth(a), body: { npis: a.lookups, operation: "grade" } });
    });
    this.loop(700, async () => {
      const a = pick(accounts);
      const res = await this.send("dispatch", "/v1/a2a/scans/dispatch", {
        headers: auth(a),
        body: { npi: pick(a.scans), scan_type: "full", callback_url: receiver.urlFor(a.accountId) },
      });
      if (res?.status === 202) this.jobs.set(res.json.job_id as string, a.accountId);
    });
    this.loop(1_000, async () => {
      const a = pick(accounts);
      const doc = scanDocument(a.agent.agentId, {
        hostname: `soak-host-${accounts.indexOf(a)}`,
        unencrypted: Math.random() < 0.5,
      });
      const body = JSON.stringify(doc);
      await this.send("upload", "/v1/a2a/network/results", {
        method: "POST",
        headers: uploadHeaders(a.agent.agentId, doc.scan_id, body, a.agent.privateKey),
        body,
      });
    });
    for (const a of accounts.filter((x) => x.portalInvite)) this.portalLoop(a);
  }

  /** A viewer in the portal: accepts the invitation, then reads pages; signs in again if the session is gone. */
  private portalLoop(a: SoakAccount): void {
    const browser = new PortalClient({
      request: async (path, options) => {
        const t0 = performance.now();
        const urls = this.o.urls();
        try {
          if (urls.length === 0) throw new Error("no instance up");
          const res = await httpRequestTo(`${pick(urls)}${path}`, { ca: this.o.ca, timeoutMs: 30_000, ...options });
          this.tallies.get("portal")!.record(res.status, performance.now() - t0, res.text);
          return res;
        } catch (err) {
          this.tallies.get("portal")!.record("conn", performance.now() - t0);
          throw err;
        }
      },
    });
    const invite = a.portalInvite!;
    let invited = false;
    let signedIn = false;
    const signIn = async () => {
      if (!invited) {
        // The invitation first (accepting it signs the new user in); once tried, the sign-in page.
        const page = await browser.get(`/portal/invite?token=${invite.token}`);
        if (page.status !== 200) return;
        invited = true;
        const accepted = await browser.post("/portal/invite", {
          token: invite.token,
          password: PORTAL_TEST_PASSWORD,
          confirm: PORTAL_TEST_PASSWORD,
        });
        signedIn = accepted.status === 303;
        return;
      }
      if ((await browser.get("/portal/sign-in")).status !== 200) return;
      const res = await browser.post("/portal/sign-in", { email: invite.email, password: PORTAL_TEST_PASSWORD });
      signedIn = res.status === 303;
    };
    const pages = [
      `/portal/practices/${a.lookups[0]}`,
      `/portal/practices/${a.lookups[0]}/findings`,
      `/portal/practices/${a.lookups[0]}/records`,
      "/portal/audit",
    ];
    let n = 0;
    this.loop(600, async () => {
      try {
        if (!signedIn) {
          await signIn();
          return;
        }
        const res = await browser.get(pages[n++ % pages.length]!);
        if (res.status === 303 && String(res.headers.location ?? "").startsWith("/portal/sign-in")) {
          signedIn = false;
          await signIn();
        }
      } catch {
        // Counted (conn) by the request above; the next turn tries again.
      }
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}
