/**
 * Backup products by package name (Linux), process name, or the display name an installer registers (Windows
 * Programs and Features, macOS application names).
 */
const AGENTS: readonly [string, RegExp][] = [
  ["restic", /^restic$/i],
  ["borg", /^borg(backup)?$/i],
  ["duplicity", /^(duplicity|deja-dup)$/i],
  ["duplicati", /^duplicati/i],
  ["bacula", /^bacula-(fd|client|common)$/i],
  ["bareos", /^bareos-(fd|filedaemon)$/i],
  ["rsnapshot", /^rsnapshot$/i],
  ["timeshift", /^timeshift$/i],
  ["urbackup", /^urbackup(clientbackend|-client|srv| client)?/i],
  ["veeam", /^veeam(service|agent)?$|^veeam agent\b/i],
  ["amanda", /^amanda-client$/i],
  ["burp", /^burp(-client)?$/i],
  ["acronis", /acronis/i],
  ["arq", /^arq( agent| backup)?$/i],
  ["backblaze", /^backblaze\b/i],
  ["carbonite", /^carbonite\b/i],
  ["crashplan", /^(code42|crashplan)\b/i],
  ["datto", /^datto (windows agent|rmm agent|backup agent)/i],
  ["macrium", /^macrium reflect\b/i],
  ["idrive", /^idrive\b/i],
  ["carbon_copy_cloner", /^carbon copy cloner$/i],
  ["superduper", /^superduper!?$/i],
  ["druva", /^druva inSync\b/i],
];

/** The backup products among package, process and program names, each once. */
export function backupAgents(names: readonly string[]): string[] {
  const found = new Set<string>();
  for (const name of names) for (const [agent, pattern] of AGENTS) if (pattern.test(name)) found.add(agent);
  return [...found].sort();
}
