import type { ExecResult } from "../../host/host.js";
import { Unavailable } from "./unavailable.js";

/**
 * Why a command's output cannot be used, typed, or null when it can. Missing tools and missing privileges are the
 * ordinary reasons on a real fleet.
 */
export function commandUnavailable(r: ExecResult, tool = r.command.split(" ")[0] ?? r.command): Unavailable | null {
  if (r.notFound) return new Unavailable("not_found", `${tool} is not available on this machine`);
  if (r.permissionDenied) return new Unavailable("permission", `${tool} needs administrator (root) privileges`);
  if (r.timedOut) return new Unavailable("timeout", `${tool} did not answer in time`);
  return null;
}

/** {@link commandUnavailable} in words, for a part of a phase's facts that could not be read. */
export function unusableOutput(r: ExecResult, tool?: string): string | null {
  return commandUnavailable(r, tool)?.message ?? null;
}
