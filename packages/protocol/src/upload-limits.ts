/**
 * What one scan upload (POST /v1/a2a/network/results) may carry. The server answers more with 413
 * `payload_too_large` and {@link ScanUploadLimitExceeded} as `details`; the scanner caps its own output to the
 * same numbers, so a real scan is never refused. Sized from what the scanner's phases produce: a Windows
 * workstation gives 4–8 findings (SMB and NetBIOS open and reachable, RDP with its self-signed TLS), the scanning
 * machine itself at most ~100 (end-of-life software, cleartext flows), so a practice of 20–60 devices uploads a few
 * hundred findings (5–25× under the limit) and even a fully populated /24 ~1,000–2,000 (about 600 bytes each). The
 * byte limit bounds the one step the server cannot interrupt (JSON.parse: ~10 ms for 2 MiB), the finding limits the
 * work of storing the assessment (~40 ms of SQLite for 2,500 findings, done in slices).
 */
export const SCAN_UPLOAD_LIMITS = {
  /** Findings about one host: a finding's `host`, or the scanning machine when it names none. */
  findings_per_host: 500,
  /** Distinct hosts the findings are about (two fully populated /24 networks). */
  hosts_per_upload: 512,
  /** Findings in one upload, every host and phase together. */
  findings_per_upload: 2500,
  /** Bytes of the upload body (other requests may have 10 MiB). */
  upload_bytes: 2 * 1024 * 1024,
} as const;

export type ScanUploadLimitName = keyof typeof SCAN_UPLOAD_LIMITS;
export type ScanUploadLimits = { readonly [K in ScanUploadLimitName]: number };

/** The `details` of a 413 for an upload over a limit: which limit, its value, the upload's count, and the host. */
export interface ScanUploadLimitExceeded {
  readonly limit: ScanUploadLimitName;
  readonly max: number;
  readonly actual: number;
  readonly host?: string;
}

/** The host a finding is about: its own `host`, else the machine that scanned (the server's rule when storing). */
export function findingHost(finding: unknown, scanningHost: string): string {
  const host = typeof finding === "object" && finding !== null ? (finding as { host?: unknown }).host : undefined;
  return typeof host === "string" ? host : scanningHost.toLowerCase();
}

/**
 * The first finding limit a document exceeds (most specific first: per host, hosts, total), or null. Reads only
 * `host` of each finding, so the server can run it before validating the findings one by one.
 */
export function exceededFindingLimit(
  doc: {
    readonly host: { readonly hostname: string };
    readonly phases: readonly { readonly findings: readonly unknown[] }[];
  },
  limits: ScanUploadLimits = SCAN_UPLOAD_LIMITS,
): ScanUploadLimitExceeded | null {
  const perHost = new Map<string, number>();
  let total = 0;
  for (const phase of doc.phases) {
    for (const f of phase.findings) {
      const host = findingHost(f, doc.host.hostname);
      perHost.set(host, (perHost.get(host) ?? 0) + 1);
      total++;
    }
  }
  let worst: [string, number] | null = null;
  for (const entry of perHost) if (!worst || entry[1] > worst[1]) worst = entry;
  if (worst && worst[1] > limits.findings_per_host) {
    return { limit: "findings_per_host", max: limits.findings_per_host, actual: worst[1], host: worst[0] };
  }
  if (perHost.size > limits.hosts_per_upload) {
    return { limit: "hosts_per_upload", max: limits.hosts_per_upload, actual: perHost.size };
  }
  if (total > limits.findings_per_upload) {
    return { limit: "findings_per_upload", max: limits.findings_per_upload, actual: total };
  }
  return null;
}

/** The sentence a client shows for an exceeded limit. */
export function describeExceededLimit(e: ScanUploadLimitExceeded): string {
  switch (e.limit) {
    case "findings_per_host":
      return `the upload has ${e.actual} findings about host ${e.host}; at most ${e.max} per host are accepted`;
    case "hosts_per_upload":
      return `the upload has findings about ${e.actual} hosts; at most ${e.max} hosts per upload are accepted`;
    case "findings_per_upload":
      return `the upload has ${e.actual} findings; at most ${e.max} per upload are accepted`;
    case "upload_bytes":
      return `the upload is ${e.actual} bytes; at most ${e.max} bytes are accepted`;
  }
}
