import { z } from "zod";
import { createNodeDnsIO } from "./dns.js";
import { createNodeHttpClient } from "./http-client.js";
import { createNodeTcpConnect } from "./tcp-connect.js";
import { createNodeTlsProbe } from "./tls-probe.js";
import type { ExternalScanIO } from "./types.js";

/** Per-operation limits of the real IO, in milliseconds (each also stops when the scan's deadline does). */
export const DEFAULT_IO_TIMEOUTS = {
  dnsMs: 3_000,
  connectMs: 3_000,
  tlsHandshakeMs: 4_000,
  httpMs: 8_000,
} as const;

/** Largest page body read; practice sites are small and anything past this is not needed to find trackers. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

const timeout = z.number().int().min(50).max(120_000);

export const ExternalScanIOOptionsSchema = z.object({
  /** Resolvers to use (HCS_DNS_SERVERS); absent or empty: the system's. */
  dnsServers: z
    .array(z.object({ host: z.union([z.ipv4(), z.ipv6()]), port: z.number().int().min(1).max(65_535) }))
    .optional(),
  /** Extra CA certificates (PEM) the certificate check trusts next to the system roots. */
  trustedCaPem: z.array(z.string().includes("-----BEGIN CERTIFICATE-----")).optional(),
  timeouts: z
    .object({
      dnsMs: timeout.optional(),
      connectMs: timeout.optional(),
      tlsHandshakeMs: timeout.optional(),
      httpMs: timeout.optional(),
    })
    .optional(),
  maxBodyBytes: z.number().int().min(1_024).max(16_777_216).optional(),
  userAgent: z.string().min(1).max(200).optional(),
});
export type ExternalScanIOOptions = z.input<typeof ExternalScanIOOptionsSchema>;

const DEFAULT_USER_AGENT = "HCS-ExternalScan/1.0 (+HIPAA compliance assessment)";

/** The real network IO of the external scan, configured once (the server passes HCS_DNS_SERVERS here). */
export function createExternalScanIO(options: ExternalScanIOOptions = {}): ExternalScanIO {
  const o = ExternalScanIOOptionsSchema.parse(options);
  const timeouts = { ...DEFAULT_IO_TIMEOUTS, ...o.timeouts };
  return {
    dns: createNodeDnsIO({ timeoutMs: timeouts.dnsMs, ...(o.dnsServers ? { servers: o.dnsServers } : {}) }),
    tls: createNodeTlsProbe({
      timeoutMs: timeouts.tlsHandshakeMs,
      ...(o.trustedCaPem ? { trustedCaPem: o.trustedCaPem } : {}),
    }),
    http: createNodeHttpClient({
      timeoutMs: timeouts.httpMs,
      maxBodyBytes: o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      userAgent: o.userAgent ?? DEFAULT_USER_AGENT,
    }),
    tcp: createNodeTcpConnect({ timeoutMs: timeouts.connectMs }),
  };
}
