import type { Config } from "../../config.js";
import { createExternalScanIO } from "../../external-scan/io/create-io.js";
import { externalScanIOOptions } from "../../jobs/create-worker.js";
import type { ProofIO } from "./proof.js";

const built = new WeakMap<object, ProofIO>();

/**
 * The proof checks' IO: the external scan's own resolver (HCS_DNS_SERVERS) and HTTP client, under its address
 * policy (HCS_ALLOW_PRIVATE_TARGETS), built once per configuration.
 */
export function proofIOFor(config: Pick<Config, "extraCaFile" | "dnsServers" | "allowPrivateTargets">): ProofIO {
  let io = built.get(config);
  if (!io) {
    const scan = createExternalScanIO(externalScanIOOptions(config));
    io = { dns: scan.dns, http: scan.http, allowPrivateTargets: config.allowPrivateTargets };
    built.set(config, io);
  }
  return io;
}
