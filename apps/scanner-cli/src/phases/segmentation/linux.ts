import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import type { FirewallReading } from "./firewall.js";
import { parseUfwStatus } from "./parse.js";
import { judgeRuleset, parseIptablesSave, parseNftJson, type Ruleset } from "./rulesets.js";

/**
 * The kernel's own rule set first — `nft -j list ruleset`, else `iptables-save` (both need root; firewalld and ufw
 * rules are in it too) — judged for the default of incoming traffic and sensitive ports open to any address; then
 * ufw's view when the rule set cannot be read. Nothing readable is `unknown`, with every reason, never "ok".
 */
export async function linuxFirewall(host: Host, signal: AbortSignal): Promise<FirewallReading> {
  const reasons: string[] = [];
  const nft = await host.exec("nft", ["-j", "list", "ruleset"], { signal });
  const nftProblem = unusableOutput(nft);
  const nftRules = nftProblem || !nft.ok ? null : parseNftJson(nft.stdout);
  if (nftRules) return fromRuleset(nftRules);
  reasons.push(nftProblem ?? "nft printed no readable rule set");

  const ipt = await host.exec("iptables-save", [], { signal });
  const iptProblem = unusableOutput(ipt);
  const iptRules = iptProblem || !ipt.ok ? null : parseIptablesSave(ipt.stdout);
  if (iptRules) return fromRuleset(iptRules);
  reasons.push(iptProblem ?? "iptables-save printed no readable rule set");

  const ufw = await host.exec("ufw", ["status", "verbose"], { signal });
  const ufwProblem = unusableOutput(ufw);
  const state = ufwProblem ? null : parseUfwStatus(ufw.stdout);
  if (state) return { tool: "ufw", state };
  reasons.push(ufwProblem ?? "ufw printed an unexpected status");
  return { tool: "ufw", state: "unknown", reason: reasons.join("; ") };
}

/**
 * A rule set that refuses nothing is no firewall; one that refuses by default is active; one that accepts by
 * default but refuses some traffic filters only what it names (`accepts_by_default`).
 */
function fromRuleset(ruleset: Ruleset): FirewallReading {
  const judged = judgeRuleset(ruleset);
  const state =
    judged.defaultInput === "drop"
      ? "active"
      : judged.refusingRules > 0 || judged.jumpsNotFollowed > 0
        ? "active"
        : "inactive";
  return { tool: ruleset.tool, state, ruleset: judged };
}
