import type { TargetKind } from "./record.js";

/**
 * Pure readers of the native backup tools' listings. Time Machine and timeshift name backups after the local
 * time they started, so those are built in the scanner's own time zone, which is the machine's; wbadmin's
 * version identifier is UTC.
 */

/** A configured Time Machine destination, by kind (Local, Network); its name stays out of the report. */
export interface TimeMachineDestination {
  readonly kind: string;
  readonly mounted: boolean;
}

/** `tmutil destinationinfo`: the destinations, [] when none is configured, null when the text is neither. */
export function parseTmutilDestinations(text: string): TimeMachineDestination[] | null {
  if (/No destinations configured/i.test(text)) return [];
  const blocks = text.split(/^=+\s*$/m).filter((b) => /^\s*Name\s*:/m.test(b));
  if (blocks.length === 0) return null;
  return blocks.map((block) => ({
    kind: /^\s*Kind\s*:\s*(.+?)\s*$/m.exec(block)?.[1] ?? "unknown",
    mounted: /^\s*Mount Point\s*:\s*\S/m.test(block),
  }));
}

/** Why `tmutil latestbackup` could not name the latest backup. */
export type LatestBackupProblem = "full_disk_access" | "destination_not_mounted";

/**
 * `tmutil latestbackup`: the start time of the newest backup, read from the last path component
 * (`…/2019-07-29-100231` on HFS+ destinations, `…/2026-08-01-005134.backup/…` on APFS ones). tmutil exits 0 even
 * when it has no backup to show, so the text decides. Null when the text is none of the known answers.
 */
export function parseTmutilLatestBackup(text: string): { at: Date } | { problem: LatestBackupProblem } | null {
  if (/requires Full Disk Access/i.test(text)) return { problem: "full_disk_access" };
  if (/Failed to mount/i.test(text)) return { problem: "destination_not_mounted" };
  const stamps = [...text.matchAll(/(\d{4})-(\d{2})-(\d{2})-(\d{2})(\d{2})(\d{2})(?:\.backup)?\s*$/gm)];
  const last = stamps[stamps.length - 1];
  if (!last) return null;
  const [y, mo, d, h, mi, s] = last.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  return { at: new Date(y, mo - 1, d, h, mi, s) };
}

/**
 * `wbadmin get versions`: every backup's version identifier, `MM/DD/YYYY-HH:MM` in UTC. Only the identifier's
 * shape is read, never the labels, which wbadmin translates. Oldest first.
 */
export function parseWbadminVersions(text: string): Date[] {
  const out: Date[] = [];
  for (const m of text.matchAll(/\b(\d{2})\/(\d{2})\/(\d{4})-(\d{2}):(\d{2})\b/g)) {
    out.push(new Date(Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2]), Number(m[4]), Number(m[5]))));
  }
  return out.sort((a, b) => a.getTime() - b.getTime());
}

/**
 * `wbadmin get versions`: the kinds of the targets its versions went to (`Backup target: Fixed Disk labeled F:`,
 * `Network Share labeled \\server\share`), each once; the label itself is not kept. English labels only (wbadmin
 * translates them): other languages give no kind, which is not a finding.
 */
export function parseWbadminTargets(text: string): TargetKind[] {
  const kinds = new Set<TargetKind>();
  for (const m of text.matchAll(/^\s*Backup target:\s*(.+?)\s*$/gm)) {
    const target = m[1]!;
    if (/^Fixed Disk/i.test(target)) kinds.add("local_disk");
    else if (/^(Removable|External) Disk/i.test(target)) kinds.add("removable_disk");
    else if (/^Network Share/i.test(target)) kinds.add("network_share");
    else if (/^(DVD|Optical)/i.test(target)) kinds.add("optical");
  }
  return [...kinds];
}

/** `timeshift --list`: the snapshots' start times (`2020-06-17_00-57-44`), oldest first; null without a listing. */
export function parseTimeshiftList(text: string): Date[] | null {
  if (!/^\d+ snapshots?,/m.test(text) && !/^Num\s+Name\s+Tags/m.test(text)) return null;
  const out: Date[] = [];
  for (const m of text.matchAll(/^\d+\s+>\s+(\d{4})-(\d{2})-(\d{2})_(\d{2})-(\d{2})-(\d{2})\b/gm)) {
    const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    out.push(new Date(y, mo - 1, d, h, mi, s));
  }
  return out.sort((a, b) => a.getTime() - b.getTime());
}
