import type { Host } from "../../host/host.js";
import { type FileIntegrityState, type IntegrityTool, judgeFileIntegrity } from "./file-integrity.js";

const anyExists = async (host: Host, paths: readonly string[]) =>
  (await Promise.all(paths.map((p) => host.fs.exists(p)))).some(Boolean);

/** Files of a directory, by name (no recursion). */
async function filesIn(host: Host, dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const f of host.fs.walk(dir, { maxFiles: 200, maxDepth: 0 })) out.push(f.path.slice(dir.length + 1));
  return out;
}

/**
 * AIDE (a database under /var/lib/aide: Debian's aide.db, RHEL's aide.db.gz; aide.db.new alone means `--init` ran
 * but the baseline was never put in place), Tripwire (a `.twd` database), Samhain (its baseline file), osquery
 * (`file_paths` in its configuration and osqueryd running), Wazuh/OSSEC (syscheck in ossec.conf and its daemon).
 */
export async function linuxFileIntegrity(host: Host): Promise<FileIntegrityState> {
  const processes = (await host.sysinfo.processes()).map((p) => p.name);
  const running = (...names: string[]) => names.some((n) => processes.includes(n));
  const [aideBin, aideDb, tripwireBin, tripwireDb, samhainBin, samhainDb, osqueryConf, ossecConf] = await Promise.all([
    anyExists(host, ["/usr/bin/aide", "/usr/sbin/aide"]),
    filesIn(host, "/var/lib/aide"),
    anyExists(host, ["/usr/sbin/tripwire"]),
    filesIn(host, "/var/lib/tripwire"),
    anyExists(host, ["/usr/sbin/samhain"]),
    filesIn(host, "/var/lib/samhain"),
    host.fs.readFile("/etc/osquery/osquery.conf"),
    host.fs.readFile("/var/ossec/etc/ossec.conf"),
  ]);
  const aideBaseline = aideDb.some((f) => /^aide\.db(\.gz)?$/.test(f));
  const tools: IntegrityTool[] = [
    {
      tool: "aide",
      name: "AIDE",
      installed: aideBin,
      watching: aideBaseline,
      state: aideBaseline
        ? "baseline database present"
        : aideDb.some((f) => f.startsWith("aide.db.new"))
          ? "aide.db.new was created but never moved into place"
          : "no baseline database (aideinit never ran)",
    },
    {
      tool: "tripwire",
      name: "Tripwire",
      installed: tripwireBin,
      watching: tripwireDb.some((f) => f.endsWith(".twd")),
      state: tripwireDb.some((f) => f.endsWith(".twd"))
        ? "database present"
        : "no database (tripwire --init never ran)",
    },
    {
      tool: "samhain",
      name: "Samhain",
      installed: samhainBin,
      watching: samhainDb.length > 0 && running("samhain"),
      state:
        samhainDb.length === 0
          ? "no baseline (samhain -t init never ran)"
          : running("samhain")
            ? "running with a baseline"
            : "not running",
    },
    {
      tool: "osquery",
      name: "osquery",
      installed: osqueryConf !== null,
      watching: Boolean(osqueryConf?.includes('"file_paths"')) && running("osqueryd"),
      state: !osqueryConf?.includes('"file_paths"')
        ? "no file_paths in osquery.conf"
        : running("osqueryd")
          ? "file_paths watched by osqueryd"
          : "osqueryd not running",
    },
    {
      tool: "wazuh",
      name: "Wazuh/OSSEC syscheck",
      installed: ossecConf !== null,
      watching:
        Boolean(
          ossecConf && /<syscheck>/.test(ossecConf) && !/<syscheck>[\s\S]*?<disabled>yes<\/disabled>/.test(ossecConf),
        ) && running("wazuh-syscheckd", "ossec-syscheckd"),
      state: ossecConf && /<syscheck>/.test(ossecConf) ? "syscheck configured" : "no syscheck section",
    },
  ];
  // /var/lib/aide is root's (0700 on Debian): without root an initialised baseline is invisible.
  const unknown =
    aideBin && !aideBaseline && !host.isPrivileged
      ? "AIDE is installed but its database directory is root's to read"
      : processes.length === 0 && tools.some((t) => t.installed && !t.watching)
        ? "the process list could not be read (whether the integrity agents run is unknown)"
        : null;
  return judgeFileIntegrity(tools, unknown);
}
