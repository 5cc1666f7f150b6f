import { platform } from "node:os";
import type { Platform } from "@hcs/protocol";
import { HostError } from "./host-error.js";

/** The OS this process runs on, read once (platform branching lives in module constants, as in execa). */
const NODE_PLATFORM = platform();

export const IS_WINDOWS = NODE_PLATFORM === "win32";
export const IS_MACOS = NODE_PLATFORM === "darwin";
export const IS_LINUX = NODE_PLATFORM === "linux";

/** This machine's platform in protocol terms; the scanner supports exactly the protocol's three. */
export function currentPlatform(): Platform {
  if (IS_LINUX || IS_MACOS || IS_WINDOWS) return NODE_PLATFORM as Platform;
  throw new HostError("unsupported_platform", `the scanner runs on Linux, macOS and Windows, not ${NODE_PLATFORM}`);
}
