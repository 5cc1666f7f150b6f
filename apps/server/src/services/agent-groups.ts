import type { AgentView, OneShotGroup } from "@hcs/protocol";

/**
 * The agents of a practice as its owner reads them (pure): the installed scanners one by one, in the order given, and
 * the one-shot runs grouped by machine (host name and platform), the latest group first. A CI job that runs
 * `hcs-scanner one-shot` nine times is one group of nine runs, not nine scanners; the runs that may still upload are
 * listed in the group (to be revoked), the others counted.
 */
export function groupAgents(agents: readonly AgentView[]): { agents: AgentView[]; one_shot: OneShotGroup[] } {
  const installed: AgentView[] = [];
  const byMachine = new Map<string, AgentView[]>();
  for (const a of agents) {
    if (!a.ephemeral) {
      installed.push(a);
      continue;
    }
    const key = `${a.platform}\u0000${a.hostname}`;
    byMachine.set(key, [...(byMachine.get(key) ?? []), a]);
  }
  const groups = [...byMachine.values()].map((runs): OneShotGroup => {
    const byRegistration = [...runs].sort((x, y) => x.registered_at.localeCompare(y.registered_at));
    const latest = byRegistration.at(-1)!;
    const uploads = runs.flatMap((r) => (r.last_seen_at ? [r.last_seen_at] : [])).sort();
    const count = (state: AgentView["state"]) => runs.filter((r) => r.state === state).length;
    return {
      hostname: latest.hostname,
      platform: latest.platform,
      runs: runs.length,
      active: count("active"),
      expired: count("expired"),
      revoked: count("revoked"),
      first_registered_at: byRegistration[0]!.registered_at,
      last_registered_at: latest.registered_at,
      last_upload_at: uploads.at(-1) ?? null,
      scanner_version: latest.scanner_version,
      active_agents: byRegistration.filter((r) => r.state === "active"),
    };
  });
  groups.sort(
    (x, y) => y.last_registered_at.localeCompare(x.last_registered_at) || x.hostname.localeCompare(y.hostname),
  );
  return { agents: installed, one_shot: groups };
}
