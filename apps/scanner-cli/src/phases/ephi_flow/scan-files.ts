import type { HostFs } from "../../host/host.js";
import { detectEphi, EPHI_TYPES, type EphiCounts, type EphiType } from "./detect.js";

/** Limits that keep a scan of a large share bounded in time and memory. */
export const EPHI_SCAN_LIMITS = { maxFilesPerRoot: 50_000, maxDepth: 16, headBytes: 1024 * 1024, maxLocations: 500 };

export interface EphiLocation {
  readonly path: string;
  readonly types: EphiType[];
  readonly matches: number;
  /** Readable by every local account (POSIX "other" read bit). */
  readonly worldReadable: boolean;
}

export interface EphiRootReport {
  readonly root: string;
  readonly exists: boolean;
  readonly filesScanned: number;
  readonly filesFlagged: number;
  readonly byType: Record<EphiType, number>;
  readonly locations: EphiLocation[];
  readonly truncated: boolean;
}

/** Walks one configured path and counts suspected ePHI per file; records paths and counts, never content. */
export async function scanEphiRoot(fs: HostFs, root: string, signal: AbortSignal): Promise<EphiRootReport> {
  const byType = Object.fromEntries(EPHI_TYPES.map((t) => [t, 0])) as Record<EphiType, number>;
  const locations: EphiLocation[] = [];
  let filesScanned = 0;
  let filesFlagged = 0;
  const exists = await fs.exists(root);
  if (exists) {
    const walk = fs.walk(root, {
      maxFiles: EPHI_SCAN_LIMITS.maxFilesPerRoot,
      maxDepth: EPHI_SCAN_LIMITS.maxDepth,
      signal,
    });
    for await (const file of walk) {
      if (signal.aborted) break;
      filesScanned++;
      const head = await fs.readBytes(file.path, EPHI_SCAN_LIMITS.headBytes);
      if (!head) continue;
      const counts: EphiCounts = detectEphi(head);
      const types = EPHI_TYPES.filter((t) => (counts[t] ?? 0) > 0);
      if (types.length === 0) continue;
      filesFlagged++;
      let matches = 0;
      for (const t of types) {
        byType[t] += counts[t] ?? 0;
        matches += counts[t] ?? 0;
      }
      if (locations.length < EPHI_SCAN_LIMITS.maxLocations) {
        const info = await fs.stat(file.path);
        locations.push({ path: file.path, types, matches, worldReadable: info ? (info.mode & 0o004) !== 0 : false });
      }
    }
  }
  return { root, exists, filesScanned, filesFlagged, byType, locations, truncated: filesFlagged > locations.length };
}
