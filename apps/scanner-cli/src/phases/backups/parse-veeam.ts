/**
 * `veeamconfig session list` (Veeam Agent for Linux): one line per session — job name, type, session id in braces,
 * state, start and finish (local time, `YYYY-MM-DD HH:MM`), then `Total amount: N`. The job name may hold spaces,
 * so a line is read from the session id outwards; the name itself is not kept.
 */

export interface VeeamSession {
  readonly kind: "backup" | "restore" | "other";
  readonly state: "success" | "warning" | "failed" | "running" | "other";
  readonly startedAt: Date;
  /** Null while the session runs. */
  readonly finishedAt: Date | null;
}

const LINE =
  /^(.*?)\s+(\S+)\s+\{[0-9a-fA-F-]{36}\}\s+(\S+)\s+(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?:\s+(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}))?\s*$/;

const localTime = (parts: readonly (string | undefined)[]): Date => {
  const [y, mo, d, h, mi] = parts.map(Number) as [number, number, number, number, number];
  return new Date(y, mo - 1, d, h, mi);
};

function kindOf(type: string): VeeamSession["kind"] {
  if (/restore|recovery/i.test(type)) return "restore";
  if (/backup/i.test(type)) return "backup";
  return "other";
}

function stateOf(state: string): VeeamSession["state"] {
  const s = state.toLowerCase();
  if (s === "success" || s === "warning" || s === "failed" || s === "running") return s;
  return "other";
}

/** The sessions, oldest first; null when the text is not a session list (no header, no total). */
export function parseVeeamSessionList(text: string): VeeamSession[] | null {
  if (!/^\s*Job name\s+Type\s+ID\s+State/m.test(text) && !/^Total amount:\s*\d+/m.test(text)) return null;
  const sessions: VeeamSession[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = LINE.exec(line);
    if (!m) continue;
    sessions.push({
      kind: kindOf(m[2]!),
      state: stateOf(m[3]!),
      startedAt: localTime(m.slice(4, 9)),
      finishedAt: m[9] ? localTime(m.slice(9, 14)) : null,
    });
  }
  return sessions.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
}
