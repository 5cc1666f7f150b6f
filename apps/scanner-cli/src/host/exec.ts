import { execa } from "execa";
import { decodeOutput, isNotFound, isPermissionDenied } from "./exec-classify.js";
import type { ExecOptions, ExecResult } from "./host.js";

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;
/** Grace period between SIGTERM on timeout and SIGKILL, so a hung tool never outlives its phase. */
const FORCE_KILL_AFTER_MS = 2_000;

/**
 * The one way the scanner runs a command: never through a shell, stdin closed, C locale so outputs parse the
 * same everywhere, bounded in time and output, and a failure is a result (execa's `reject: false`), not a throw.
 */
export async function runCommand(
  command: string,
  args: readonly string[],
  options: ExecOptions = {},
): Promise<ExecResult> {
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const result = await execa(command, [...args], {
    reject: false,
    shell: false,
    stdin: "ignore",
    encoding: "buffer",
    stripFinalNewline: false,
    windowsHide: true,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    forceKillAfterDelay: FORCE_KILL_AFTER_MS,
    maxBuffer: maxOutputBytes,
    ...(options.signal ? { cancelSignal: options.signal } : {}),
    env: { ...options.env, LC_ALL: "C", LANG: "C" },
  });
  const stdout = decodeOutput(asBytes(result.stdout));
  const stderr = decodeOutput(asBytes(result.stderr));
  const exitCode = typeof result.exitCode === "number" ? result.exitCode : null;
  const signals = { spawnCode: spawnErrorCode(result), exitCode, stdout, stderr };
  const notFound = isNotFound(signals);
  return {
    command: [command, ...args].join(" "),
    exitCode,
    stdout,
    stderr,
    ok: !result.failed && exitCode === 0,
    notFound,
    timedOut: result.timedOut === true,
    permissionDenied: !notFound && isPermissionDenied(signals),
    outputTruncated: result.isMaxBuffer === true,
  };
}

function asBytes(output: unknown): Uint8Array {
  return output instanceof Uint8Array ? output : new Uint8Array();
}

/** Node's code for a process that never started (ENOENT, EACCES); execa keeps the spawn error as `cause`. */
function spawnErrorCode(result: { failed: boolean; cause?: unknown; code?: unknown }): string | undefined {
  if (!result.failed) return undefined;
  const cause = result.cause as { code?: unknown } | undefined;
  if (cause && typeof cause.code === "string") return cause.code;
  return typeof result.code === "string" ? result.code : undefined;
}
