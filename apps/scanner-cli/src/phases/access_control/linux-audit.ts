import type { Host } from "../../host/host.js";
import { unusableOutput } from "../shared/command.js";
import { type AuditState, journaldStorage, judgeAudit, parseTimedatectlShow } from "./audit.js";

const JOURNALD_CONF = "/etc/systemd/journald.conf";
const JOURNALD_DROP_INS = "/etc/systemd/journald.conf.d";

/** The audit controls of a Linux machine: journald's storage, running log/audit/time daemons, timedatectl. */
export async function linuxAudit(host: Host, signal?: AbortSignal): Promise<AuditState> {
  const dropIns: string[] = [];
  for await (const f of host.fs.walk(JOURNALD_DROP_INS, { maxFiles: 50, maxDepth: 0, signal })) {
    if (f.path.endsWith(".conf")) dropIns.push(f.path);
  }
  const configs = await Promise.all([JOURNALD_CONF, ...dropIns.sort()].map((p) => host.fs.readFile(p)));
  const [journalDir, processes, auditdSbin, auditdUsr, td] = await Promise.all([
    host.fs.stat("/var/log/journal"),
    host.sysinfo.processes(),
    host.fs.exists("/sbin/auditd"),
    host.fs.exists("/usr/sbin/auditd"),
    host.exec("timedatectl", ["show"], { signal }),
  ]);
  const tdProblem = unusableOutput(td);
  const timedatectl = tdProblem ? null : parseTimedatectlShow(td.stdout);
  return judgeAudit({
    journaldStorage: journaldStorage(configs.filter((c): c is string => c !== null)),
    journalDirectoryExists: journalDir?.isDirectory ?? false,
    processes: processes.length > 0 ? processes.map((p) => p.name) : null,
    auditdInstalled: auditdSbin || auditdUsr,
    timedatectl: timedatectl ?? {
      unavailable: tdProblem ?? `timedatectl printed no synchronisation state (${td.stderr.trim().slice(0, 120)})`,
    },
  });
}
