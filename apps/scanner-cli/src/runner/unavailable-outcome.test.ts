import { PLATFORMS } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { createFakeHost } from "../host/fake-host.js";
import { definePhase, type Phase, type ScanScope } from "../phases/phase.js";
import { PHASE_REGISTRY } from "../phases/registry.js";
import { ok } from "../phases/shared/outcome.js";
import { Unavailable, type UnavailableKind } from "../phases/shared/unavailable.js";
import { runPhases } from "./run-phases.js";
import { UNAVAILABLE_STATUS } from "./unavailable-outcome.js";

// The runner decides what an unavailable reading means, the same way for every phase with per-OS readers.
const scope: ScanScope = { mode: "host", hosts: ["127.0.0.1"], given: [] };
const KINDS: UnavailableKind[] = ["not_found", "permission", "timeout", "unparsed"];
const EXPECTED_STATUS = { not_found: "unsupported", permission: "skipped", timeout: "skipped", unparsed: "skipped" };

const withReadersOf = (p: Phase) => p.read !== undefined;
const required = PHASE_REGISTRY.filter((p) => withReadersOf(p) && p.readingRequired);
const parts = PHASE_REGISTRY.filter((p) => withReadersOf(p) && !p.readingRequired);

/** The phase as registered, with its reader for every platform answering `reading`. */
const reading = (p: Phase, answer: Unavailable): Phase => ({ ...p, read: async () => answer });

describe("an unavailable reading, decided by the runner", () => {
  it("maps each kind to one status: a missing tool is unsupported, the rest skipped", () => {
    expect(UNAVAILABLE_STATUS).toEqual(EXPECTED_STATUS);
  });

  it("covers the phases that read the OS: each declares its readers once, and they are its platforms", () => {
    expect(required.map((p) => p.id)).toEqual(["disk_encryption", "mfa", "access_control", "segmentation"]);
    expect(parts.map((p) => p.id)).toEqual(["discovery", "ports", "asset_inventory", "patches", "backups"]);
    for (const p of [...required, ...parts]) expect(p.platforms).toEqual(PLATFORMS);
  });

  for (const kind of KINDS) {
    it(`${kind}: every phase that needs its reading ends ${EXPECTED_STATUS[kind]}, in the reader's words`, async () => {
      const host = createFakeHost({ platform: "linux" });
      const phases = required.map((p) => reading(p, new Unavailable(kind, `${p.id} could not read (${kind})`)));
      const results = await runPhases({ host, phases, scope, options: { ephiPaths: [] } });
      for (const r of results)
        expect(r).toEqual({
          id: r.id,
          status: EXPECTED_STATUS[kind],
          duration_ms: expect.any(Number),
          reason: `${r.id} could not read (${kind})`,
          facts: { unavailable: kind },
          findings: [],
        });
      // The phase's own work never ran: it would have read the host (commands, files).
      expect(host.calls.exec).toEqual([]);
    });
  }

  it("a phase whose reading is one part still completes, and names the part it could not read", async () => {
    const host = createFakeHost({ platform: "win32" });
    const phases = parts.map((p) => reading(p, new Unavailable("permission", "needs an elevated shell")));
    const results = await runPhases({
      host,
      phases,
      scope,
      options: { ephiPaths: [] },
    });
    const byId = new Map(results.map((r) => [r.id, r]));
    expect(byId.get("discovery")).toMatchObject({
      status: "ok",
      facts: { neighbours_unavailable: "needs an elevated shell" },
    });
    // Without the socket table, host mode falls back to probing the fixed list and says exposure was not judged.
    expect(byId.get("ports")).toMatchObject({
      status: "ok",
      facts: { not_assessed: { listener_exposure: expect.stringContaining("needs an elevated shell") } },
    });
    expect(byId.get("asset_inventory")).toMatchObject({
      status: "ok",
      facts: { software_unavailable: "needs an elevated shell" },
    });
    expect(byId.get("backups")).toMatchObject({
      status: "ok",
      facts: { not_assessed: { last_backup: "could not be read: needs an elevated shell" } },
    });
    // The update record is one part of patches; with anti-malware unreadable too (no PowerShell on the fake host)
    // nothing at all was read, and the phase ends as a required reading would.
    expect(byId.get("patches")).toMatchObject({
      status: "skipped",
      reason: "needs an elevated shell",
      facts: { unavailable: "permission" },
    });
  });

  it("patches: the update record unavailable, anti-malware read — the phase completes and names the missing part", async () => {
    const patches = parts.find((p) => p.id === "patches")!;
    const host = createFakeHost({
      platform: "linux",
      sysinfo: { processes: [{ pid: 1, name: "systemd", command: "", user: "root" }] },
    });
    const [r] = await runPhases({
      host,
      phases: [reading(patches, new Unavailable("not_found", "apt is not available on this machine"))],
      scope,
      options: { ephiPaths: [] },
    });
    expect(r).toMatchObject({
      status: "ok",
      facts: { not_assessed: { package_updates: "apt is not available on this machine" } },
    });
    expect(r!.findings.map((f) => f.id)).toEqual(["patches.no_malware_protection"]);
  });

  it("a platform without a reader is unsupported without reading; the reader gets the host and the signal", async () => {
    const seen: string[] = [];
    const macOnly = definePhase({
      id: "mfa",
      readers: {
        darwin: async (host, signal) => {
          seen.push(`${host.platform} ${signal.aborted}`);
          return { enforced: true };
        },
      },
      run: async (_ctx, state) => ok({ enforced: state.enforced }),
    });
    expect(macOnly.platforms).toEqual(["darwin"]);
    const onLinux = await runPhases({
      host: createFakeHost({ platform: "linux" }),
      phases: [macOnly],
      scope,
      options: { ephiPaths: [] },
    });
    expect(onLinux[0]).toMatchObject({ status: "unsupported", reason: `${macOnly.title} has no linux implementation` });
    const onMac = await runPhases({
      host: createFakeHost({ platform: "darwin" }),
      phases: [macOnly],
      scope,
      options: { ephiPaths: [] },
    });
    expect(onMac[0]).toMatchObject({ status: "ok", facts: { enforced: true } });
    expect(seen).toEqual(["darwin false"]);
  });
});
