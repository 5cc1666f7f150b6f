/**
 * File integrity, 164.312(c)(1): is a tool watching system and ePHI files for unauthorised change, and has it a
 * baseline to compare against. A tool installed without its baseline (AIDE before `aideinit`) detects nothing.
 * Pure judgement of what linux-file-integrity.ts saw; reported by the access_control phase beside the audit
 * controls (docs/scanner.md says why).
 */
import type { FindingInput, JsonObject } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";

export interface IntegrityTool {
  /** `aide`, `tripwire`, `samhain`, `osquery`, `wazuh`. */
  readonly tool: string;
  readonly name: string;
  /** Installed (its binary, or its configuration for agents). */
  readonly installed: boolean;
  /** Has a baseline or is configured to watch files (and, for agents, runs): it would notice a change. */
  readonly watching: boolean;
  /** What shows it is watching, or what is missing, in words. */
  readonly state: string;
}

export interface FileIntegrityState {
  readonly facts: JsonObject;
  readonly findings: FindingInput[];
  readonly unavailable: string | null;
}

/**
 * One finding when no tool watches files: none installed, or installed without a baseline (the title says which).
 * `unknown` (a baseline this run may not look for, without root) is not assessed, never passed.
 */
export function judgeFileIntegrity(tools: readonly IntegrityTool[], unknown: string | null): FileIntegrityState {
  const installed = tools.filter((t) => t.installed);
  const watching = installed.filter((t) => t.watching);
  const facts: JsonObject = {
    file_integrity: {
      tools: installed.map((t) => ({ tool: t.tool, watching: t.watching, state: t.state })),
      watching: watching.length > 0 ? true : unknown ? null : false,
    },
  };
  if (watching.length > 0) return { facts, findings: [], unavailable: null };
  if (unknown) return { facts, findings: [], unavailable: unknown };
  const names = installed.map((t) => t.name);
  return {
    facts,
    findings: [
      phaseFinding("access_control", {
        check: "no_file_integrity_monitoring",
        severity: "low",
        title:
          installed.length === 0
            ? "No file integrity monitoring watches this machine's files"
            : `${names.join(", ")} ${installed.length > 1 ? "are" : "is"} installed but ${installed.length > 1 ? "watch" : "watches"} nothing (${installed.map((t) => t.state).join("; ")})`,
        detail:
          "Unauthorised changes to programs, configuration or ePHI files would go unnoticed: nothing records what they looked like before.",
        remediation: installed.some((t) => t.tool === "aide")
          ? "Initialise AIDE's database (aideinit, or aide --init and move aide.db.new into place) and run its daily check; add the ePHI directories to aide.conf."
          : "Install a file integrity monitor (apt install aide; aideinit) or enable the FIM of the practice's agent (osquery file_paths, Wazuh syscheck) for system paths and ePHI directories.",
        evidence: { tools: installed.map((t) => ({ tool: t.tool, state: t.state })) },
        controls: ["164.312(c)(1)"],
      }),
    ],
    unavailable: null,
  };
}
