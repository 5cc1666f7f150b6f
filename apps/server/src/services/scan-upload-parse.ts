import {
  describeExceededLimit,
  exceededFindingLimit,
  FindingInputSchema,
  PhaseResultSchema,
  type ScanResultDocument,
  ScanResultDocumentSchema,
} from "@hcs/protocol";
import { z } from "zod";
import { ServiceError } from "../errors.js";
import { parseJsonBytes } from "../util/json-depth.js";
import { zodIssues } from "../util/parse-json.js";
import type { Pace } from "../util/time-slicer.js";

// The document with each phase's findings left unchecked: the envelope is validated in one cheap step, the limits
// are checked on it, and only then are the findings validated, a few at a time.
const EnvelopeSchema = ScanResultDocumentSchema.extend({
  phases: z
    .array(PhaseResultSchema.extend({ findings: z.array(z.unknown()) }))
    .min(1)
    .max(12),
});
const FindingsSchema = z.array(FindingInputSchema);

// Validating one finding costs ~10 µs; the pace decides when to yield, chunks only keep the calls coarse.
const FINDINGS_PER_CHUNK = 100;

const invalidBody = (issues: { path: string; message: string }[]) =>
  new ServiceError("invalid_body", "the scan document does not match the protocol schema", { issues });

/**
 * Parses a signed upload's body into a scan document without holding the event loop for long: JSON.parse (its one
 * uninterruptible step, bounded by the upload byte limit and, checked before it, the nesting depth), the envelope, the finding limits (413 with
 * {limit, max, actual, host?}), then the findings in chunks with `pace` between them. The same document as parsing
 * it whole with ScanResultDocumentSchema, and schema errors at the same paths; an upload over a limit is refused
 * before any of its findings is examined.
 */
export async function parseScanUpload(raw: Buffer, pace: Pace): Promise<ScanResultDocument> {
  const value = parseJsonBytes(raw, "the scan document");
  await pace();
  const envelope = EnvelopeSchema.safeParse(value);
  if (!envelope.success) throw invalidBody(zodIssues(envelope.error));
  const exceeded = exceededFindingLimit(envelope.data);
  if (exceeded) throw new ServiceError("payload_too_large", describeExceededLimit(exceeded), { ...exceeded });

  const phases: ScanResultDocument["phases"] = [];
  for (const [i, phase] of envelope.data.phases.entries()) {
    const findings: ScanResultDocument["phases"][number]["findings"] = [];
    for (let start = 0; start < phase.findings.length; start += FINDINGS_PER_CHUNK) {
      await pace();
      const chunk = FindingsSchema.safeParse(phase.findings.slice(start, start + FINDINGS_PER_CHUNK));
      if (!chunk.success) throw invalidBody(zodIssues(chunk.error).map((issue) => inDocument(issue, i, start)));
      findings.push(...chunk.data);
    }
    phases.push({ ...phase, findings });
  }
  return { ...envelope.data, phases };
}

/** A chunk's issue path (`<index in chunk>.<field>`) as a whole-document parse reports it. */
function inDocument(issue: { path: string; message: string }, phase: number, start: number) {
  const [index, ...rest] = issue.path.split(".");
  return { ...issue, path: ["phases", phase, "findings", Number(index) + start, ...rest].join(".") };
}
