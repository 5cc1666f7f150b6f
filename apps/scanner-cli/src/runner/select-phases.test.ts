import type { PhaseId } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { definePhase, type Phase } from "../phases/phase.js";
import { PhaseSelectionError } from "./errors.js";
import { selectPhases } from "./select-phases.js";

const p = (id: PhaseId, dependsOn: PhaseId[] = []): Phase =>
  definePhase({ id, platforms: ["linux"], dependsOn, run: async () => ({ status: "ok", facts: {}, findings: [] }) });
const registry = [p("discovery"), p("ports"), p("tls", ["ports"]), p("asset_inventory"), p("eol", ["asset_inventory"])];

describe("selectPhases", () => {
  it("selects everything, dependencies first, when nothing is asked", () => {
    expect(selectPhases(registry).phases.map((x) => x.id)).toEqual([
      "discovery",
      "ports",
      "tls",
      "asset_inventory",
      "eol",
    ]);
  });

  it("adds the dependencies of a selected phase and says which", () => {
    const s = selectPhases(registry, "eol, tls");
    expect(s.phases.map((x) => x.id)).toEqual(["ports", "tls", "asset_inventory", "eol"]);
    expect(s.added.sort()).toEqual(["asset_inventory", "ports"]);
  });

  it("rejects unknown ids with a typed error listing them", () => {
    try {
      selectPhases(registry, ["ports", "bogus", "mfa"]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PhaseSelectionError);
      expect((e as PhaseSelectionError).code).toBe("unknown_phase");
      // mfa is a protocol id but not in this registry
      expect((e as PhaseSelectionError).unknown).toEqual(["bogus", "mfa"]);
    }
  });

  it("rejects an empty --phases value", () => {
    expect(() => selectPhases(registry, " , ")).toThrow(expect.objectContaining({ code: "empty_selection" }));
  });
});
