import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SamplePractices } from "./start.js";

/**
 * The server settings that point its external scan at the sample practices: their DNS server, their CA (with any
 * other CA the server must trust, such as a webhook receiver's), and private targets allowed (they live on
 * loopback). Writes the CA bundle into `dir`.
 */
export function samplePracticesEnv(samples: SamplePractices, dir: string, extraCaPem = ""): Record<string, string> {
  const caFile = join(dir, "extra-ca.pem");
  writeFileSync(caFile, samples.caPem + extraCaPem);
  return {
    HCS_ALLOW_PRIVATE_TARGETS: "1",
    HCS_DNS_SERVERS: `127.0.0.1:${samples.dns.port}`,
    HCS_EXTRA_CA_FILE: caFile,
  };
}
