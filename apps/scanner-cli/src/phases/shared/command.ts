import type { ExecResult } from "../../host/host.js";

/**
 * Why a command's output cannot be used, in words for the operator, or null when it can.
 * Missing tools and missing privileges are the ordinary reasons on a real fleet.
 */
export function unusableOutput(r: ExecResult, tool = r.command.split(" ")[0] ?? r.command): string | null {
  if (r.notFound) return `${tool} is not available on this machine`;
  if (r.permissionDenied) return `${tool} needs administrator (root) privileges`;
  if (r.timedOut) return `${tool} did not answer in time`;
  return null;
}
