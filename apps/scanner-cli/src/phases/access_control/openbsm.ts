/**
 * macOS security auditing (OpenBSM), 164.312(b): `/etc/security/audit_control` (audit_control(5)) says which event
 * classes are recorded and how long trail files are kept. Since macOS 14 Apple ships it off (no audit_control, only
 * `audit_control.example`); the unified log is always on but keeps days, not months. Pure. docs/scanner.md says
 * what is judged and why.
 */
import type { FindingInput, JsonObject } from "@hcs/protocol";
import { phaseFinding } from "../shared/finding.js";

export interface AuditControl {
  readonly dirs: readonly string[];
  /** Event classes audited for every user, as written (`lo`, `+aa`, `-fr`, `^ex`, `all`). */
  readonly flags: readonly string[];
  /** Classes audited for events no user can be held to. */
  readonly naflags: readonly string[];
  readonly policy: readonly string[];
  readonly filesz: string | null;
  readonly expireAfter: string | null;
}

/** The settings of audit_control; null when no `flags:` or `dir:` line is there (not that file). */
export function parseAuditControl(text: string): AuditControl | null {
  const values = new Map<string, string[]>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-z-]+):(.*)$/.exec(line);
    if (!m) continue;
    values.set(m[1]!, [...(values.get(m[1]!) ?? []), m[2]!.trim()]);
  }
  if (!values.has("flags") && !values.has("dir")) return null;
  const list = (key: string) => (values.get(key)?.at(-1) ?? "").split(",").flatMap((v) => (v.trim() ? [v.trim()] : []));
  return {
    dirs: values.get("dir") ?? [],
    flags: list("flags"),
    naflags: list("naflags"),
    policy: list("policy"),
    filesz: values.get("filesz")?.at(-1) ?? null,
    expireAfter: values.get("expire-after")?.at(-1) || null,
  };
}

/**
 * The classes an assessor asks for: logins and logouts (`lo`) and authentication and authorisation (`aa`), which
 * Apple's own audit_control and the CIS macOS benchmark set.
 */
export const REQUIRED_CLASSES: Readonly<Record<string, string>> = {
  lo: "login and logout",
  aa: "authentication and authorisation",
};

/**
 * Whether a class is recorded on success and on failure: `lo` both, `+lo` success, `-lo` failure, `all` every
 * class; a `^` prefix removes what follows it (audit_control(5), audit_class(5)).
 */
export function classRecorded(flags: readonly string[], cls: string): { success: boolean; failure: boolean } {
  const state = { success: false, failure: false };
  for (const flag of flags) {
    const m = /^(\^?)([+-]?)(\w+)$/.exec(flag);
    if (!m || (m[3] !== cls && m[3] !== "all")) continue;
    const on = m[1] !== "^";
    if (m[2] !== "-") state.success = on;
    if (m[2] !== "+") state.failure = on;
  }
  return state;
}

/** Each required class missing an outcome, named with what is missing (`lo (failure)`). */
export function openbsmFlagGaps(control: AuditControl): string[] {
  return Object.keys(REQUIRED_CLASSES).flatMap((cls) => {
    const r = classRecorded(control.flags, cls);
    const missing = [r.success ? null : "success", r.failure ? null : "failure"].filter(Boolean).join(" and ");
    return missing ? [`${cls} (${missing})`] : [];
  });
}

export interface ExpireAfter {
  /** Trail files older than this are removed. */
  readonly days: number | null;
  /** Trail files are removed once the whole trail is larger than this. */
  readonly bytes: number | null;
  /** Both given: `OR` removes at the first limit reached, `AND` only when both are. */
  readonly combine: "OR" | "AND" | null;
}

const TIME_UNITS: Record<string, number> = { s: 1 / 86_400, h: 1 / 24, d: 1, y: 365 };
const SIZE_UNITS: Record<string, number> = { B: 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/**
 * `expire-after:` as audit_control(5) writes it: a time (`60d`; s, h, d, y), a size (`1G`; B, K, M, G) or both
 * joined by AND or OR. Null when it does not read as that (the units are case-sensitive there too).
 */
export function parseExpireAfter(value: string): ExpireAfter | null {
  const parts = value.trim().split(/\s+(AND|OR)\s+/i);
  if (parts.length !== 1 && parts.length !== 3) return null;
  let days: number | null = null;
  let bytes: number | null = null;
  for (const part of [parts[0]!, parts[2]].filter((p): p is string => p !== undefined)) {
    const m = /^(\d+)([shdyBKMG])$/.exec(part);
    if (!m) return null;
    const n = Number(m[1]);
    if (m[2]! in TIME_UNITS) days = n * TIME_UNITS[m[2]!]!;
    else bytes = n * SIZE_UNITS[m[2]!]!;
  }
  const combine = parts.length === 3 ? (parts[1]!.toUpperCase() as "AND" | "OR") : null;
  return { days, bytes, combine };
}

/** The CIS macOS benchmark's retention: `expire-after:60d OR 1G`. */
export const RETENTION_BASELINE = { days: 60, bytes: 1024 ** 3 } as const;

/**
 * Whether trail files are removed before the baseline: with OR (or one limit) any limit below it removes them early;
 * with AND both limits must be below it. No `expire-after` at all: auditd removes nothing (not short).
 */
export function retentionShort(e: ExpireAfter): boolean {
  const below = [
    e.days === null ? null : e.days < RETENTION_BASELINE.days,
    e.bytes === null ? null : e.bytes < RETENTION_BASELINE.bytes,
  ].filter((b): b is boolean => b !== null);
  return e.combine === "AND" ? below.every(Boolean) : below.some(Boolean);
}

export interface OpenbsmState {
  readonly facts: JsonObject;
  readonly findings: FindingInput[];
}

const AUDIT_CONTROLS = ["164.312(b)"] as const;
const ENABLE_HINT =
  "cp /etc/security/audit_control.example /etc/security/audit_control, then launchctl enable system/com.apple.auditd and launchctl bootstrap system /System/Library/LaunchDaemons/com.apple.auditd.plist (or collect the same events with an EDR or MDM agent)";

/**
 * The judgement of what was read: no audit_control → OpenBSM is off (low: the unified log still records logins, for
 * days); `lo`/`aa` not recorded → `audit_policy_gaps` (medium, as on Windows); trail files removed before 60 days
 * or 1 GB → `audit_retention_short` (low).
 */
export function judgeOpenbsm(control: AuditControl | "absent"): OpenbsmState {
  if (control === "absent") {
    return {
      facts: { configured: false },
      findings: [
        phaseFinding("access_control", {
          check: "openbsm_not_configured",
          severity: "low",
          title: "macOS security auditing (OpenBSM) is not configured",
          detail:
            "/etc/security/audit_control does not exist, so no audit trail of logins, authentication and administrator actions is kept (the default since macOS 14). The unified log records some of these events, but keeps them for days, not for the period an investigation needs.",
          remediation: `Turn on security auditing with the lo and aa classes and expire-after:60d OR 1G: ${ENABLE_HINT}.`,
          evidence: { audit_control: null },
          controls: AUDIT_CONTROLS,
        }),
      ],
    };
  }
  const findings: FindingInput[] = [];
  const gaps = openbsmFlagGaps(control);
  if (gaps.length > 0)
    findings.push(
      phaseFinding("access_control", {
        check: "audit_policy_gaps",
        severity: "medium",
        title: "macOS security auditing does not record every login and authentication",
        detail: `The flags of /etc/security/audit_control (${control.flags.join(",") || "none"}) do not record: ${gaps.map((g) => `${g} (${REQUIRED_CLASSES[g.split(" ")[0]!]})`).join(", ")}. Without these events, who used this Mac and who authenticated as an administrator cannot be shown.`,
        remediation:
          "Add lo and aa to the flags: line of /etc/security/audit_control (flags:lo,aa,ad), then run audit -s.",
        evidence: { flags: [...control.flags], not_recorded: gaps },
        controls: ["164.312(b)", "164.308(a)(5)(ii)(C)"],
      }),
    );
  const expire = control.expireAfter === null ? null : parseExpireAfter(control.expireAfter);
  const short = expire ? retentionShort(expire) : false;
  if (short)
    findings.push(
      phaseFinding("access_control", {
        check: "audit_retention_short",
        severity: "low",
        title: "macOS removes its audit trail too soon",
        detail: `expire-after:${control.expireAfter} in /etc/security/audit_control removes trail files before they are 60 days old or the trail reaches 1 GB, so older logins and administrator actions cannot be examined.`,
        remediation:
          "Set expire-after:60d OR 1G (or longer, to your retention policy) in /etc/security/audit_control and run audit -s; forward the trail to a collector that keeps it for your retention period.",
        evidence: { expire_after: control.expireAfter, baseline: "60d OR 1G" },
        controls: ["164.312(b)", "164.316(b)(2)(i)"],
      }),
    );
  return {
    facts: {
      configured: true,
      flags: [...control.flags],
      naflags: [...control.naflags],
      expire_after: control.expireAfter,
      filesz: control.filesz,
      not_recorded: gaps,
      // An expire-after that does not read as audit_control(5) writes it is named, not judged.
      retention_short: control.expireAfter !== null && expire === null ? null : short,
    },
    findings,
  };
}
