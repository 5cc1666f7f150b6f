import type { FindingInput } from "@hcs/protocol";
import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { phaseFinding } from "../shared/finding.js";
import { ok } from "../shared/outcome.js";
import { EPHI_TYPES } from "./detect.js";
import { classifyFlows, type Flow } from "./flows.js";
import { type EphiRootReport, scanEphiRoot } from "./scan-files.js";

/**
 * Where ePHI sits (pattern scan of `--ephi-paths`) and where it flows (connections of EHR processes, cleartext
 * flows). Reports counts, types and file paths only, never content (docs/security.md#no-phi-leaves-the-clinic).
 */
export const ephiFlowPhase = definePhase({
  id: "ephi_flow",
  platforms: ["linux", "darwin", "win32"],
  timeoutMs: 600_000,
  run: traceEphi,
});

async function traceEphi(ctx: PhaseContext): Promise<PhaseOutcome> {
  const roots: EphiRootReport[] = [];
  for (const root of ctx.options.ephiPaths) {
    if (ctx.signal.aborted) break;
    roots.push(await scanEphiRoot(ctx.host.fs, root, ctx.signal));
  }
  const [connections, processes] = await Promise.all([
    ctx.host.sysinfo.networkConnections(),
    ctx.host.sysinfo.processes(),
  ]);
  const flows = classifyFlows(connections, processes);
  const findings = [...roots.flatMap(atRestFindings), ...flows.filter((f) => f.protocol).map(cleartextFinding)];
  const totals = Object.fromEntries(EPHI_TYPES.map((t) => [t, roots.reduce((n, r) => n + r.byType[t], 0)]));
  return ok(
    {
      paths_configured: ctx.options.ephiPaths.length,
      files_scanned: roots.reduce((n, r) => n + r.filesScanned, 0),
      files_flagged: roots.reduce((n, r) => n + r.filesFlagged, 0),
      matches_by_type: totals,
      roots: roots.map((r) => ({
        root: r.root,
        exists: r.exists,
        files_scanned: r.filesScanned,
        files_flagged: r.filesFlagged,
        matches_by_type: r.byType,
        locations: r.locations.map((l) => ({
          path: l.path,
          types: l.types,
          matches: l.matches,
          world_readable: l.worldReadable,
        })),
        locations_truncated: r.truncated,
      })),
      flows: flows.map((f) => ({
        process: f.process,
        peer: f.peer,
        port: f.port,
        protocol: f.protocol,
        ehr_process: f.ehr,
      })),
    },
    findings,
  );
}

function atRestFindings(r: EphiRootReport): FindingInput[] {
  if (r.filesFlagged === 0) return [];
  const types = EPHI_TYPES.filter((t) => r.byType[t] > 0);
  const exposed = r.locations.filter((l) => l.worldReadable);
  const out: FindingInput[] = [
    phaseFinding("ephi_flow", {
      check: "ephi_at_rest",
      subject: r.root,
      category: "asset_management",
      severity: "medium",
      title: `${r.filesFlagged} files under ${r.root} appear to hold ePHI`,
      detail: `Suspected ePHI types: ${types.join(", ")}. Each location must be in the risk analysis, encrypted at rest, access-controlled and backed up.`,
      remediation:
        "Confirm these files belong in this location; move ePHI into the EHR or an encrypted, access-controlled share, and delete stray exports.",
      evidence: { root: r.root, files_flagged: r.filesFlagged, types, matches_by_type: r.byType },
    }),
  ];
  if (exposed.length > 0) {
    out.push(
      phaseFinding("ephi_flow", {
        check: "ephi_world_readable",
        subject: r.root,
        category: "asset_management",
        controls: ["164.308(a)(1)(ii)(A)", "164.312(a)(1)"],
        severity: "high",
        title: `${exposed.length} files with suspected ePHI under ${r.root} are readable by every local account`,
        detail: "Any user or service account on this machine can read these files.",
        remediation:
          "Restrict the files to the accounts that need them (chmod o-r, or NTFS ACLs), and review who can read the share.",
        evidence: { root: r.root, files: exposed.slice(0, 50).map((l) => l.path) },
      }),
    );
  }
  return out;
}

function cleartextFinding(f: Flow): FindingInput {
  return phaseFinding("ephi_flow", {
    check: "cleartext_flow",
    subject: `${f.process}:${f.peer}:${f.port}`,
    category: "encryption",
    controls: ["164.308(a)(1)(ii)(A)", "164.312(e)(2)(ii)"],
    severity: f.ehr ? "high" : "medium",
    title: `${f.ehr ? "EHR process " : ""}${f.process} talks ${f.protocol} in cleartext to ${f.peer}:${f.port}`,
    detail:
      "Data on this connection crosses the network unencrypted; if it carries ePHI anyone on the path can read it.",
    remediation: "Use the protocol's TLS form (HTTPS, LDAPS, DICOM TLS, MLLP over TLS) or tunnel it through a VPN.",
    evidence: { process: f.process, peer: f.peer, port: f.port, protocol: f.protocol ?? "" },
  });
}
