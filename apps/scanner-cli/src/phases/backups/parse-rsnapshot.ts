/**
 * rsnapshot keeps no catalogue; its log does: `[04/Aug/2017:03:44:14] /usr/bin/rsnapshot daily: completed
 * successfully` (rsnapshot 1.4 and later write `[2024-08-04T03:44:14]`). Both are local time.
 */

/** The `logfile` directive of rsnapshot.conf (fields are tab-separated there), or null when it is unset. */
export function parseRsnapshotLogfile(conf: string): string | null {
  for (const line of conf.split(/\r?\n/)) {
    const m = /^logfile\t+(\S.*?)\s*$/.exec(line);
    if (m) return m[1]!;
  }
  return null;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function stampOf(text: string): Date | null {
  const old = /^(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (old) {
    const month = MONTHS.indexOf(old[2]!);
    if (month < 0) return null;
    return new Date(Number(old[3]), month, Number(old[1]), Number(old[4]), Number(old[5]), Number(old[6]));
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!iso) return null;
  const [y, mo, d, h, mi, s] = iso.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  return new Date(y, mo - 1, d, h, mi, s);
}

export interface RsnapshotRuns {
  /** Runs that completed (with or without warnings), oldest first. */
  readonly completed: Date[];
  /** The newest run that ended in an error, if any. */
  readonly lastErrorAt: Date | null;
}

/** The runs a log (or its tail) records; null when it holds no rsnapshot line at all. */
export function parseRsnapshotLog(text: string): RsnapshotRuns | null {
  const completed: Date[] = [];
  let lastErrorAt: Date | null = null;
  let lines = 0;
  for (const line of text.split(/\r?\n/)) {
    const m = /^\[([^\]]+)\]\s+\S*rsnapshot\s+\S+:\s+(.*)$/.exec(line);
    if (!m) continue;
    const at = stampOf(m[1]!);
    if (!at) continue;
    lines++;
    if (/^completed successfully|^completed, but with some warnings/.test(m[2]!)) completed.push(at);
    else if (/^ERROR:|^completed, but with some errors/.test(m[2]!)) {
      if (!lastErrorAt || at > lastErrorAt) lastErrorAt = at;
    }
  }
  if (lines === 0) return null;
  return { completed: completed.sort((a, b) => a.getTime() - b.getTime()), lastErrorAt };
}
