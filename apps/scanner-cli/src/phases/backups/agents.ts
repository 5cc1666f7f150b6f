/** Backup products by package or process name (restic, Borg, Veeam, Bacula, Duplicati, UrBackup, …). */
const AGENTS: readonly [string, RegExp][] = [
  ["restic", /^restic$/i],
  ["borg", /^borg(backup)?$/i],
  ["duplicity", /^(duplicity|deja-dup)$/i],
  ["duplicati", /^duplicati/i],
  ["bacula", /^bacula-(fd|client|common)$/i],
  ["bareos", /^bareos-(fd|filedaemon)$/i],
  ["rsnapshot", /^rsnapshot$/i],
  ["timeshift", /^timeshift$/i],
  ["urbackup", /^urbackup(clientbackend|-client|srv)?/i],
  ["veeam", /^veeam(service|agent)?$/i],
  ["amanda", /^amanda-client$/i],
  ["burp", /^burp(-client)?$/i],
  ["acronis", /acronis/i],
];

/** The backup products among package and process names, each once. */
export function backupAgents(names: readonly string[]): string[] {
  const found = new Set<string>();
  for (const name of names) for (const [agent, pattern] of AGENTS) if (pattern.test(name)) found.add(agent);
  return [...found].sort();
}
