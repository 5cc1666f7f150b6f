import type { FindingInput } from "@hcs/protocol";
import type { Host } from "../../host/host.js";
import { phaseFinding } from "../shared/finding.js";
import { type Reading, Unavailable } from "../shared/unavailable.js";
import { type AccessControlState, manyAdminsFinding } from "./findings.js";
import { linuxAudit } from "./linux-audit.js";
import { linuxFileIntegrity } from "./linux-file-integrity.js";
import { linuxLoginPolicy } from "./linux-login-policy.js";
import { linuxPathPermissions } from "./linux-path-permissions.js";
import { extraSuperusers, groupMembers, loginDefsNumber } from "./parse.js";

const ADMIN_GROUPS = ["sudo", "wheel", "admin"];

/** Local administrators, extra superusers and password ageing from /etc files (readable without root). */
export async function linuxAccessControl(host: Host, signal?: AbortSignal): Promise<Reading<AccessControlState>> {
  const [group, passwd, loginDefs] = await Promise.all([
    host.fs.readFile("/etc/group"),
    host.fs.readFile("/etc/passwd"),
    host.fs.readFile("/etc/login.defs"),
  ]);
  // Both exist on every Linux: unreadable means this run may not read them.
  if (group === null || passwd === null)
    return new Unavailable("permission", "/etc/group or /etc/passwd is not readable");
  const admins = [...new Set([...groupMembers(group, ADMIN_GROUPS).values()].flat())];
  const superusers = extraSuperusers(passwd);
  const maxDays = loginDefs ? loginDefsNumber(loginDefs, "PASS_MAX_DAYS") : null;
  const findings: FindingInput[] = [];
  for (const account of superusers) {
    findings.push(
      phaseFinding("access_control", {
        check: "extra_superuser",
        subject: account,
        severity: "critical",
        title: `Account ${account} has uid 0 (a second root)`,
        detail:
          "Actions of this account are indistinguishable from root's in logs, defeating unique user identification.",
        remediation: `Give ${account} its own uid and grant administration through sudo.`,
        evidence: { account },
        controls: ["164.312(a)(2)(i)"],
      }),
    );
  }
  const many = manyAdminsFinding(
    admins,
    "Remove administrator rights that are not needed day to day; review the list quarterly.",
  );
  if (many) findings.push(many);
  // Audit controls (164.312(b)) are read here too: the protocol has no phase of their own (docs/scanner.md).
  // So is file integrity (164.312(c)(1)): the same question of whether a change to the machine would be noticed.
  const [policy, audit, integrity, paths] = await Promise.all([
    linuxLoginPolicy(host, loginDefs, signal),
    linuxAudit(host, signal),
    linuxFileIntegrity(host),
    linuxPathPermissions(host, passwd),
  ]);
  return {
    facts: {
      admins,
      extra_superusers: superusers,
      pass_max_days: maxDays,
      ...policy.facts,
      ...audit.facts,
      ...integrity.facts,
      ...paths.facts,
      ...(integrity.unavailable ? { file_integrity_unavailable: integrity.unavailable } : {}),
    },
    findings: [...findings, ...policy.findings, ...audit.findings, ...integrity.findings, ...paths.findings],
  };
}
