import { hostname } from "node:os";
import type { Platform } from "@hcs/protocol";
import { currentPlatform } from "./platform.js";

/** What the scanner tells the server about the machine it runs on: its platform and name (register and scan). */
export interface HostIdentity {
  readonly platform: Platform;
  /** The machine's name as the OS reports it (may be empty). */
  hostname(): string;
}

/** This machine's identity; throws HostError `unsupported_platform` off Linux, macOS and Windows. */
export function realHostIdentity(): HostIdentity {
  return { platform: currentPlatform(), hostname: () => hostname() };
}
