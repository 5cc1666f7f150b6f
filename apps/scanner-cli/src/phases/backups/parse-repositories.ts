import { z } from "zod";
import type { TargetKind } from "./record.js";

/**
 * Pure readers of restic's and Borg's JSON listings. Only what requirement 6 needs is kept: how many backups, when
 * the newest started, where the repository is by kind. Paths, host names, tags and repository locations stay out.
 */

/** Snapshot times carry nanoseconds (`…:49.139060166+08:00`); Date reads at most milliseconds reliably. */
function parseInstant(text: string): Date | null {
  const normalised = text.replace(/(\.\d{3})\d+/, "$1");
  const at = new Date(normalised);
  return Number.isNaN(at.getTime()) ? null : at;
}

const ResticSnapshotsSchema = z.array(z.object({ time: z.string() }).loose());

/** `restic snapshots --json`: every snapshot's start, oldest first; null when the text is not that listing. */
export function parseResticSnapshots(text: string): Date[] | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = ResticSnapshotsSchema.safeParse(json);
  if (!parsed.success) return null;
  const times = parsed.data.map((s) => parseInstant(s.time));
  if (times.some((t) => t === null)) return null;
  return (times as Date[]).sort((a, b) => a.getTime() - b.getTime());
}

/** Why restic answered without a listing, in words that name no path (its own message may hold the repository's). */
export function resticProblem(stderr: string): string {
  if (/specify repository location|repository does not exist|unable to open config file/i.test(stderr))
    return "restic has no repository configured for this scan: run the scan with the backup job's RESTIC_REPOSITORY (or RESTIC_REPOSITORY_FILE) and RESTIC_PASSWORD_FILE";
  if (/wrong password|no key found|empty password|password/i.test(stderr))
    return "restic could not open the repository without its password: run the scan with the backup job's RESTIC_PASSWORD_FILE";
  if (/unable to create lock|repository is already locked/i.test(stderr))
    return "restic found the repository locked by another process";
  return "restic printed no snapshot list";
}

const BorgListSchema = z.object({
  archives: z.array(z.object({ start: z.string() }).loose()),
  repository: z.object({ location: z.string() }).loose(),
});

/**
 * `borg list --json`: every archive's start (ISO-8601 local time without a zone, as Borg writes it), oldest first,
 * and the repository's kind (a remote over SSH or a local path). Null when the text is not that listing.
 */
export function parseBorgList(text: string): { starts: Date[]; target: TargetKind } | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = BorgListSchema.safeParse(json);
  if (!parsed.success) return null;
  const starts: Date[] = [];
  for (const a of parsed.data.archives) {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(a.start);
    if (!m) return null;
    const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    starts.push(new Date(y, mo - 1, d, h, mi, s));
  }
  const location = parsed.data.repository.location;
  const remote = /^ssh:\/\//.test(location) || /^[^/]*@[^/]*:/.test(location);
  return { starts: starts.sort((a, b) => a.getTime() - b.getTime()), target: remote ? "remote_ssh" : "local_disk" };
}

/** Why Borg answered without a listing, in words that name no path. */
export function borgProblem(stderr: string): string {
  if (/passphrase|PassphraseWrong|Enter passphrase/i.test(stderr))
    return "borg could not open the repository without its passphrase: run the scan with the backup job's BORG_REPO and BORG_PASSCOMMAND";
  if (/does not exist|not a valid repository|location|BORG_REPO/i.test(stderr))
    return "borg has no repository configured for this scan: run the scan with the backup job's BORG_REPO and BORG_PASSCOMMAND";
  if (/lock/i.test(stderr)) return "borg found the repository locked by another process";
  return "borg printed no archive list";
}
