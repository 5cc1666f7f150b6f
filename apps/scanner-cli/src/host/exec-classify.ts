/**
 * Pure classification of a finished command. The patterns read the *tool's* own words (sudo, PowerShell,
 * manage-bde), which is the only signal some tools give; our own errors always carry codes.
 */

/** Exit codes shells use for "command not found": POSIX sh 127, cmd.exe 9009. */
const NOT_FOUND_EXIT_CODES = new Set([127, 9009]);
const NOT_FOUND_TEXT =
  /is not recognized as (?:an internal or external command|the name of a cmdlet)|command not found/i;

/** Exit code 126: found but not executable (POSIX). */
const PERMISSION_EXIT_CODES = new Set([126]);
const PERMISSION_TEXT =
  /permission denied|operation not permitted|must be (?:run as )?root|must be superuser|requires? (?:root|elevation|administrator)|access is denied|run as administrator|elevated|not privileged|are you root/i;

export interface ExecOutcomeSignals {
  /** Node's error code of the spawn itself (ENOENT, EACCES, …), when the process did not start. */
  readonly spawnCode: string | undefined;
  readonly exitCode: number | null;
  readonly stderr: string;
  readonly stdout: string;
}

/** The executable does not exist on this machine. */
export function isNotFound(s: ExecOutcomeSignals): boolean {
  if (s.spawnCode === "ENOENT") return true;
  if (s.exitCode !== null && NOT_FOUND_EXIT_CODES.has(s.exitCode)) return true;
  return s.exitCode !== 0 && NOT_FOUND_TEXT.test(s.stderr);
}

/** The command ran (or tried to) but lacked privileges. */
export function isPermissionDenied(s: ExecOutcomeSignals): boolean {
  if (s.spawnCode === "EACCES" || s.spawnCode === "EPERM") return true;
  if (s.exitCode !== null && PERMISSION_EXIT_CODES.has(s.exitCode)) return true;
  if (s.exitCode === 0) return false;
  // Some Windows tools (manage-bde) print their refusal on stdout.
  return PERMISSION_TEXT.test(s.stderr) || PERMISSION_TEXT.test(s.stdout.slice(0, 2000));
}

/**
 * Decodes a command's output bytes. Windows tools such as wmic write UTF-16LE when their output is a pipe;
 * a BOM or a NUL in every other byte gives that away.
 */
export function decodeOutput(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  }
  if (looksLikeUtf16Le(bytes)) return new TextDecoder("utf-16le").decode(bytes);
  const text = new TextDecoder("utf-8").decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function looksLikeUtf16Le(bytes: Uint8Array): boolean {
  const sample = Math.min(bytes.length, 512) & ~1;
  if (sample < 4) return false;
  let oddNuls = 0;
  for (let i = 1; i < sample; i += 2) if (bytes[i] === 0) oddNuls++;
  return oddNuls / (sample / 2) > 0.9;
}
