import type { NetworkConnection, ProcessInfo } from "../../host/host.js";
import { CLEARTEXT_PORTS } from "../shared/cleartext-ports.js";

/** Process names of EHR, PACS, interface-engine and practice-management software that move ePHI. */
const EHR_PROCESS =
  /openemr|mirth|nextgen|eclinical|ecw|athena|cerner|epic|allscripts|practicefusion|kareo|dentrix|eaglesoft|opendental|orthanc|dcm4che|horos|osirix|conquest|clearcanvas|medent|greenway|meditech|advancedmd|webpt|drchrono|carecloud/i;

export interface Flow {
  readonly process: string;
  readonly peer: string;
  readonly port: number;
  readonly protocol: string | null;
  readonly ehr: boolean;
}

/** Established TCP flows: those of EHR-like processes, and any to a cleartext protocol port. Loopback peers are local. */
export function classifyFlows(connections: readonly NetworkConnection[], processes: readonly ProcessInfo[]): Flow[] {
  const nameByPid = new Map(processes.map((p) => [p.pid, p.name]));
  const out: Flow[] = [];
  const seen = new Set<string>();
  for (const c of connections) {
    if (!/^tcp/i.test(c.protocol) || !/ESTABLISHED/i.test(c.state)) continue;
    if (isLoopback(c.peerAddress)) continue;
    const port = Number(c.peerPort);
    if (!Number.isInteger(port)) continue;
    const process = c.process || nameByPid.get(c.pid) || "unknown";
    const ehr = EHR_PROCESS.test(process);
    const protocol = CLEARTEXT_PORTS.get(port) ?? null;
    if (!ehr && !protocol) continue;
    const key = `${process}|${c.peerAddress}|${port}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ process, peer: c.peerAddress, port, protocol, ehr });
  }
  return out;
}

function isLoopback(address: string): boolean {
  return address.startsWith("127.") || address === "::1" || address === "::ffff:127.0.0.1" || address === "localhost";
}
