/**
 * sudo rules that skip authentication: `NOPASSWD:` in a user specification, or `Defaults !authenticate`. Pure; the
 * files are readable by root only (mode 0440), so a run without root names them as not read.
 */

export interface SudoWithoutPassword {
  /** Who the rule is for (`%sudo`, `deploy`, `ALL`), or the `Defaults` line (`Defaults`, `Defaults:deploy`). */
  readonly who: string;
  readonly file: string;
}

/** Lines of a sudoers file, continuation lines (trailing `\`) joined. `#include`/`#includedir` are directives. */
function logicalLines(text: string): string[] {
  const out: string[] = [];
  let pending = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = pending + raw;
    if (line.endsWith("\\")) {
      pending = `${line.slice(0, -1)} `;
      continue;
    }
    pending = "";
    out.push(line.trim());
  }
  return out;
}

/** The rules of one sudoers file that let someone run commands as another user without authenticating. */
export function sudoWithoutPassword(text: string, file: string): SudoWithoutPassword[] {
  const out: SudoWithoutPassword[] = [];
  for (const line of logicalLines(text)) {
    if (line === "" || (line.startsWith("#") && !/^#include/.test(line))) continue;
    const withoutComment = line.replace(/\s#(?!include).*$/, "");
    if (/^Defaults\b/.test(withoutComment)) {
      if (/(^|[\s,])!authenticate\b/.test(withoutComment)) out.push({ who: withoutComment.split(/\s+/)[0]!, file });
      continue;
    }
    if (/^(User|Runas|Host|Cmnd)_Alias\b/.test(withoutComment)) continue;
    if (/\bNOPASSWD\s*:/.test(withoutComment)) out.push({ who: withoutComment.split(/\s+/)[0]!, file });
  }
  return out;
}
