import { definePhase, type PhaseContext, type PhaseOutcome } from "../phase.js";
import { openPortsOf } from "../ports/open-ports.js";
import { mapBounded } from "../shared/bounded.js";
import { ok, skipped } from "../shared/outcome.js";
import { evaluateTls, type TlsTarget } from "./evaluate.js";

const PROBE_TIMEOUT_MS = 4_000;
/** Each TLS probe holds up to five connections (one per version plus the first); keep the total modest. */
const PROBES_IN_FLIGHT = 16;
const MAX_TARGETS = 1_000;

/** TLS versions, ciphers and certificates of the services the ports phase found open (phase 3, docs/scanner.md). */
export const tlsPhase = definePhase({
  id: "tls",
  platforms: ["linux", "darwin", "win32"],
  dependsOn: ["ports"],
  timeoutMs: 300_000,
  run: checkTls,
});

async function checkTls(ctx: PhaseContext): Promise<PhaseOutcome> {
  const open = openPortsOf(ctx.earlier.get("ports"));
  if (open === null) return skipped("needs the open ports found by the ports phase, which did not complete");
  const targets: TlsTarget[] = open.slice(0, MAX_TARGETS);
  const now = ctx.host.now();
  const probes = await mapBounded(targets, PROBES_IN_FLIGHT, (t) =>
    ctx.host.net.tlsProbe(t.host, t.port, PROBE_TIMEOUT_MS, ctx.signal),
  );
  const services = targets.map((t, i) => {
    const p = probes[i]!;
    return {
      host: t.host,
      port: t.port,
      service: t.service,
      tls: p.tls,
      versions: [...p.versions],
      cipher: p.cipher,
      certificate: p.certificate
        ? {
            subject: p.certificate.subject,
            issuer: p.certificate.issuer,
            valid_to: p.certificate.validTo,
            key_bits: p.certificate.keyBits,
            self_signed: p.certificate.selfSigned,
            sha256: p.certificate.sha256,
          }
        : null,
    };
  });
  const findings = targets.flatMap((t, i) => evaluateTls(t, probes[i]!, now));
  return ok({ services, services_probed: targets.length, targets_truncated: open.length > targets.length }, findings);
}
