import { BlockList, isIP } from "node:net";
import { type PhaseId, phaseDescriptor, type ScanResultDocument } from "@hcs/protocol";

/** The part of a scan document that says what a network phase looked at. */
export type ScanScopeRecord = ScanResultDocument["scope"];

/** Host mode examines this machine through loopback only (the scanner's HOST_MODE_ADDRESSES). */
const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1"]);

/**
 * Whether a completed phase of a scan examined what a finding is about, so that the finding's absence from the scan
 * means it is gone. Host-local phases examine the scanning machine, so they cover every finding of their phase.
 * Network phases cover the scanning machine itself (findings with no other host) and the hosts of their scope:
 * loopback in host mode; otherwise a target address, a host inside a target CIDR, or a target given by name.
 * Anything else (a host of an earlier, wider scope) was not looked at and keeps its findings.
 */
export function scopeCovers(
  scope: ScanScopeRecord,
  scannerHost: string,
): (phase: PhaseId, host: string | null) => boolean {
  const self = scannerHost.toLowerCase();
  const targets = targetMatcher(scope);
  return (phase, host) => {
    if (!phaseDescriptor(phase).touchesNetwork) return true;
    if (host === null) return true;
    const h = host.toLowerCase();
    if (h === self) return true;
    return targets(h);
  };
}

function targetMatcher(scope: ScanScopeRecord): (host: string) => boolean {
  if (scope.mode === "host") return (host) => LOOPBACK_NAMES.has(host) || host.startsWith("127.");
  const blocks = new BlockList();
  const names = new Set<string>();
  for (const raw of scope.targets) {
    const target = raw.trim().toLowerCase();
    const slash = target.indexOf("/");
    const address = unbracket(slash >= 0 ? target.slice(0, slash) : target);
    const family = isIP(address);
    if (family === 0) {
      if (slash < 0) names.add(target.replace(/\.$/, ""));
      continue;
    }
    const type = family === 4 ? "ipv4" : "ipv6";
    if (slash < 0) {
      blocks.addAddress(address, type);
      continue;
    }
    const prefix = Number(target.slice(slash + 1));
    // A malformed prefix covers nothing rather than everything.
    if (Number.isInteger(prefix) && prefix >= 0 && prefix <= (family === 4 ? 32 : 128)) {
      blocks.addSubnet(address, prefix, type);
    }
  }
  return (host) => {
    const address = unbracket(host);
    const family = isIP(address);
    if (family === 0) return names.has(host.replace(/\.$/, ""));
    return blocks.check(address, family === 4 ? "ipv4" : "ipv6");
  };
}

function unbracket(s: string): string {
  return s.startsWith("[") && s.endsWith("]") ? s.slice(1, -1) : s;
}
