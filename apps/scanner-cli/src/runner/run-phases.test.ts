import type { PhaseId } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { createFakeHost } from "../host/fake-host.js";
import { definePhase, type Phase, type PhaseContext, type PhaseOutcome, type ScanScope } from "../phases/phase.js";
import type { RunnerEvent } from "./events.js";
import { runPhases } from "./run-phases.js";

const scope: ScanScope = { mode: "host", hosts: ["127.0.0.1"], given: [] };
const options = { ephiPaths: [] };
const okOutcome: PhaseOutcome = { status: "ok", facts: {}, findings: [] };
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    });
  });

function phase(id: PhaseId, run: (ctx: PhaseContext) => Promise<PhaseOutcome>, extra: Partial<Phase> = {}): Phase {
  return definePhase({ id, platforms: ["linux", "darwin", "win32"], run, ...extra });
}

function tracker() {
  const log: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const networkInFlight = { now: 0, max: 0 };
  const timed = (id: PhaseId, ms: number, network = false) =>
    phase(id, async () => {
      log.push(`start ${id}`);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      if (network) networkInFlight.max = Math.max(networkInFlight.max, ++networkInFlight.now);
      await sleep(ms);
      if (network) networkInFlight.now--;
      inFlight--;
      log.push(`end ${id}`);
      return okOutcome;
    });
  return { log, timed, max: () => maxInFlight, networkMax: () => networkInFlight.max };
}

describe("runPhases", () => {
  const host = createFakeHost({ platform: "linux" });

  it("runs a phase only after the phases it depends on, and returns results in protocol order", async () => {
    const t = tracker();
    const ports = t.timed("ports", 30, true);
    const tls = { ...t.timed("tls", 5, true), dependsOn: ["ports"] as PhaseId[] };
    const eol = { ...t.timed("eol", 5), dependsOn: ["asset_inventory"] as PhaseId[] };
    const inventory = t.timed("asset_inventory", 20);
    const results = await runPhases({ host, phases: [tls, eol, inventory, ports], scope, options });
    expect(results.map((r) => r.id)).toEqual(["ports", "tls", "asset_inventory", "eol"]);
    expect(t.log.indexOf("end ports")).toBeLessThan(t.log.indexOf("start tls"));
    expect(t.log.indexOf("end asset_inventory")).toBeLessThan(t.log.indexOf("start eol"));
  });

  it("runs independent local phases concurrently within the bound, network phases one at a time", async () => {
    const t = tracker();
    const phases = [
      t.timed("disk_encryption", 40),
      t.timed("mfa", 40),
      t.timed("access_control", 40),
      t.timed("patches", 40),
      t.timed("backups", 40),
      t.timed("discovery", 40, true),
      t.timed("ports", 40, true),
      t.timed("segmentation", 40, true),
    ];
    const started = performance.now();
    const results = await runPhases({ host, phases, scope, options, concurrency: 3 });
    expect(results.every((r) => r.status === "ok")).toBe(true);
    expect(t.max()).toBe(3);
    expect(t.networkMax()).toBe(1);
    expect(performance.now() - started).toBeLessThan(8 * 40);
  });

  it("records a throwing phase as failed and still runs the others", async () => {
    const boom = phase("mfa", async () => {
      throw new TypeError("cannot read pam.d");
    });
    const results = await runPhases({ host, phases: [boom, phase("patches", async () => okOutcome)], scope, options });
    expect(results[0]).toMatchObject({ id: "mfa", status: "failed", error: { code: "phase_error" } });
    expect(results[0]?.error?.message).toContain("cannot read pam.d");
    expect(results[1]).toMatchObject({ id: "patches", status: "ok" });
  });

  it("fails a hanging phase on its timeout and aborts its signal", async () => {
    let aborted = false;
    const hang = phase("backups", (ctx) => {
      ctx.signal.addEventListener("abort", () => {
        aborted = true;
      });
      return new Promise<PhaseOutcome>(() => undefined);
    });
    const started = performance.now();
    const results = await runPhases({
      host,
      phases: [hang, phase("eol", async () => okOutcome)],
      scope,
      options,
      timeoutMs: 100,
    });
    expect(results[0]).toMatchObject({ id: "eol", status: "ok" });
    expect(results[1]).toMatchObject({ id: "backups", status: "failed", error: { code: "phase_timeout" } });
    expect(results[1]!.duration_ms).toBeGreaterThanOrEqual(90);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(aborted).toBe(true);
  });

  it("honours a phase's own time budget when the scan sets none", async () => {
    const slow = phase("patches", (ctx) => sleep(5_000, ctx.signal).then(() => okOutcome), { timeoutMs: 50 });
    const [r] = await runPhases({ host, phases: [slow], scope, options });
    expect(r).toMatchObject({ status: "failed", error: { code: "phase_timeout" } });
  });

  it("on cancellation fails the running phases and skips those not started", async () => {
    const controller = new AbortController();
    const first = phase("ports", async (ctx) => {
      setTimeout(() => controller.abort(), 20);
      await sleep(5_000, ctx.signal);
      return okOutcome;
    });
    const second = { ...phase("tls", async () => okOutcome), dependsOn: ["ports"] as PhaseId[] };
    const results = await runPhases({ host, phases: [first, second], scope, options, signal: controller.signal });
    expect(results[0]).toMatchObject({ id: "ports", status: "failed", error: { code: "cancelled" } });
    expect(results[1]).toMatchObject({ id: "tls", status: "skipped" });
  });

  it("records unsupported without running a phase that has no implementation for the platform", async () => {
    let ran = false;
    const macOnly = definePhase({
      id: "mfa",
      platforms: ["darwin"],
      run: async () => {
        ran = true;
        return okOutcome;
      },
    });
    const [r] = await runPhases({ host, phases: [macOnly], scope, options });
    expect(r).toMatchObject({ status: "unsupported" });
    expect(r?.reason).toContain("linux");
    expect(ran).toBe(false);
  });

  it("turns output outside the protocol into a failure instead of passing it on", async () => {
    const bad = phase("eol", async () => ({
      status: "ok",
      facts: {},
      findings: [{ id: "x", check_id: "BAD ID", source: "internal" } as never],
    }));
    const [r] = await runPhases({ host, phases: [bad], scope, options });
    expect(r).toMatchObject({ status: "failed", error: { code: "invalid_phase_output" }, findings: [] });
  });

  it("passes only declared dependencies' outcomes to a phase", async () => {
    let seen: PhaseId[] = [];
    const a = phase("ports", async () => ({ ...okOutcome, facts: { open: 1 } }));
    const b = phase("mfa", async () => okOutcome);
    const c = {
      ...phase("tls", async (ctx) => {
        seen = [...ctx.earlier.keys()];
        return okOutcome;
      }),
      dependsOn: ["ports"] as PhaseId[],
    };
    await runPhases({ host, phases: [a, b, c], scope, options, concurrency: 1 });
    expect(seen).toEqual(["ports"]);
  });

  it("refuses, without sending anything, a probe to an address outside the scope", async () => {
    const fake = createFakeHost({ platform: "linux", net: { open: ["127.0.0.1:22", "10.0.0.5:22"] } });
    const events: RunnerEvent[] = [];
    const probe = phase("ports", async (ctx) => {
      const inside = await ctx.host.net.connect("127.0.0.1", 22, 100);
      const outside = await ctx.host.net.connect("10.0.0.5", 22, 100);
      return { ...okOutcome, facts: { inside: inside.state, outside: outside.state } };
    });
    const [r] = await runPhases({ host: fake, phases: [probe], scope, options, onEvent: (e) => events.push(e) });
    expect(r?.facts).toEqual({ inside: "open", outside: "filtered" });
    expect(fake.calls.connect).toEqual(["127.0.0.1:22"]);
    expect(events.some((e) => e.type === "phase_log" && e.message.includes("10.0.0.5:22"))).toBe(true);
  });

  it("emits started and finished events with status and findings count", async () => {
    const events: RunnerEvent[] = [];
    await runPhases({
      host,
      phases: [phase("eol", async () => okOutcome)],
      scope,
      options,
      onEvent: (e) => events.push(e),
    });
    expect(events.map((e) => e.type)).toEqual(["phase_started", "phase_finished"]);
    expect(events[1]).toMatchObject({ id: "eol", status: "ok", findings: 0 });
  });
});
