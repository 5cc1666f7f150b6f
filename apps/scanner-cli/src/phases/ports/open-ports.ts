import type { JsonObject } from "@hcs/protocol";
import { z } from "zod";
import type { PhaseOutcome } from "../phase.js";

/** One open port as the ports phase records it in its facts; other phases read it back with {@link openPortsOf}. */
export const OpenPortFactSchema = z.object({
  host: z.string(),
  port: z.int().min(1).max(65535),
  service: z.string(),
  /**
   * For a loopback target (this machine), who can reach the port by its bind address in this machine's socket table:
   * `loopback` when it is bound to loopback only. Absent for other machines, or when the table could not be read.
   */
  exposure: z.enum(["loopback", "network"]).optional(),
});
export type OpenPortFact = z.infer<typeof OpenPortFactSchema>;

const PortsFactsSchema = z.object({ open_ports: z.array(OpenPortFactSchema) });

/** The open ports found by an earlier ports phase, or null when it did not run or produced nothing usable. */
export function openPortsOf(outcome: PhaseOutcome | undefined): OpenPortFact[] | null {
  if (outcome?.status !== "ok") return null;
  const parsed = PortsFactsSchema.safeParse(outcome.facts);
  return parsed.success ? parsed.data.open_ports : null;
}

export function openPortsFacts(open: readonly OpenPortFact[]): JsonObject {
  return {
    open_ports: open.map((o) => ({
      host: o.host,
      port: o.port,
      service: o.service,
      ...(o.exposure ? { exposure: o.exposure } : {}),
    })),
  };
}

/** One listening port of this machine as the ports phase records it from the socket table (host mode). */
const ListeningFactSchema = z.object({
  port: z.int().min(1).max(65535),
  service: z.string(),
  addresses: z.array(z.string()),
  exposure: z.enum(["loopback", "network"]),
});
export type ListeningFact = z.infer<typeof ListeningFactSchema>;

/** This machine's listening ports from an earlier ports phase, or null when it did not read the socket table. */
export function listeningOf(outcome: PhaseOutcome | undefined): ListeningFact[] | null {
  if (outcome?.status !== "ok") return null;
  const parsed = z.object({ listening: z.array(ListeningFactSchema) }).safeParse(outcome.facts);
  return parsed.success ? parsed.data.listening : null;
}
