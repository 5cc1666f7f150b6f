import { SCAN_UPLOAD_LIMITS, ScanResultDocumentSchema } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { isServiceError } from "../errors.js";
import { scanDocumentAbout } from "../test-support/scan-documents.js";
import { noPause, timeSlicer } from "../util/time-slicer.js";
import { parseScanUpload } from "./scan-upload-parse.js";

const raw = (value: unknown) => Buffer.from(JSON.stringify(value));
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a refusal");
    },
    (err: unknown) => {
      if (!isServiceError(err)) throw err;
      return { code: err.code, details: err.details };
    },
  );

describe("parseScanUpload", () => {
  it("gives the same document as parsing it whole with the protocol schema", async () => {
    const doc = scanDocumentAbout("agt_AAAAAAAAAAAAAAAA", [
      { host: null, count: 3 },
      { host: "10.20.0.1", count: 250 },
    ]);
    expect(await parseScanUpload(raw(doc), timeSlicer(0))).toEqual(ScanResultDocumentSchema.parse(doc));
  });

  it("reports a bad finding deep in a phase at its place in the document", async () => {
    const doc = scanDocumentAbout("agt_AAAAAAAAAAAAAAAA", [{ host: "10.20.0.1", count: 260 }]);
    (doc.phases[0]!.findings[257] as { severity: string }).severity = "catastrophic";
    const refused = await failure(parseScanUpload(raw(doc), noPause));
    expect(refused.code).toBe("invalid_body");
    expect(refused.details).toMatchObject({ issues: [{ path: "phases.0.findings.257.severity" }] });
  });

  it("refuses an upload over a limit before validating its findings", async () => {
    const doc = scanDocumentAbout("agt_AAAAAAAAAAAAAAAA", [
      { host: "10.20.0.1", count: SCAN_UPLOAD_LIMITS.findings_per_host + 1 },
    ]);
    // An invalid finding is not even looked at: the limit decides first.
    (doc.phases[0]!.findings[0] as { severity: string }).severity = "catastrophic";
    expect(await failure(parseScanUpload(raw(doc), noPause))).toEqual({
      code: "payload_too_large",
      details: {
        limit: "findings_per_host",
        max: SCAN_UPLOAD_LIMITS.findings_per_host,
        actual: SCAN_UPLOAD_LIMITS.findings_per_host + 1,
        host: "10.20.0.1",
      },
    });
  });

  it("answers invalid_json for a body that is not JSON", async () => {
    expect((await failure(parseScanUpload(Buffer.from("{"), noPause))).code).toBe("invalid_json");
  });
});
