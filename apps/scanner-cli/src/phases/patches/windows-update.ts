import { type RegKey, regDword } from "../shared/reg-query.js";

/** An installed update as Win32_QuickFixEngineering lists it. */
export interface Hotfix {
  readonly id: string;
  readonly description: string;
  /** Null when Windows did not record the date (some servicing-stack entries leave it blank). */
  readonly installedOn: Date | null;
}

/**
 * `wmic qfe get Caption,Description,HotFixID,InstalledOn`: a fixed-width table whose columns start where the
 * header names start. InstalledOn is written month/day/year whatever the display locale: the capture behind the
 * fixture comes from a machine whose own systeminfo prints day-first dates (13/02/2025) while wmic prints 2/13/2025.
 */
export function parseWmicQfe(text: string): Hotfix[] {
  const lines = text.split(/\r?\n/);
  const headerAt = lines.findIndex((l) => /\bHotFixID\b/.test(l) && /\bInstalledOn\b/.test(l));
  if (headerAt < 0) return [];
  const header = lines[headerAt]!;
  const columns = [...header.matchAll(/\S+/g)].map((m) => ({ name: m[0], start: m.index }));
  const cell = (row: string, name: string) => {
    const i = columns.findIndex((c) => c.name === name);
    if (i < 0) return "";
    return row.slice(columns[i]!.start, columns[i + 1]?.start ?? row.length).trim();
  };
  const out: Hotfix[] = [];
  for (const row of lines.slice(headerAt + 1)) {
    const id = cell(row, "HotFixID");
    if (!/^KB\d+$/i.test(id)) continue;
    out.push({ id, description: cell(row, "Description"), installedOn: usDate(cell(row, "InstalledOn")) });
  }
  return out;
}

function usDate(value: string): Date | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2])));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The Windows Update policy an administrator or domain set (HKLM\SOFTWARE\Policies\…\WindowsUpdate\AU). */
export interface WindowsUpdatePolicy {
  /** NoAutoUpdate = 1: automatic updates switched off by policy. */
  readonly disabled: boolean;
  /** AUOptions: 2 notify before download, 3 download then notify, 4 install on a schedule, 5 local choice, 7 notify restart. */
  readonly auOptions: number | null;
  /** UseWUServer = 1: updates come from a WSUS server, which approves them centrally. */
  readonly wsus: boolean;
}

/** The AU policy key from `reg query`, or null when the key is absent (no policy: Windows installs automatically). */
export function parseWindowsUpdatePolicy(keys: readonly RegKey[]): WindowsUpdatePolicy | null {
  const au = keys.find((k) => /\\WindowsUpdate\\AU$/i.test(k.path));
  if (!au) return null;
  return {
    disabled: regDword(au, "NoAutoUpdate") === 1,
    auOptions: regDword(au, "AUOptions") ?? null,
    wsus: regDword(au, "UseWUServer") === 1,
  };
}
