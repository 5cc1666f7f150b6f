import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findingId, PhaseResultSchema } from "@hcs/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeHost } from "../../host/fake-host.js";
import { createHostFs } from "../../host/fs.js";
import { runPhases } from "../../runner/run-phases.js";
import { ephiFlowPhase } from "./index.js";

/** Fake identifiers: valid in form, issued to nobody. */
const SSNS = ["219-09-9999", "078-05-1120", "401-23-4567", "523-71-9034", "611-48-2290", "702-14-8836"];
const MRNS = ["00482913", "77120456", "30918274"];
const DOBS = ["04/12/1961", "11/30/1978"];
const NAMES = ["Quillon Marbury", "Tessaly Vond"];

describe("ephi_flow on a directory of fake ePHI", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "hcs-ephi-"));
    await mkdir(join(root, "exports", "2024"), { recursive: true });
    await writeFile(join(root, "exports", "billing.csv"), `name,ssn\nA,${SSNS[0]}\nB,${SSNS[1]}\nC,${SSNS[2]}\n`, {
      mode: 0o600,
    });
    await writeFile(join(root, "exports", "2024", "more.txt"), `${SSNS[3]} and ${SSNS[4]}; also ${SSNS[5]}`, {
      mode: 0o644,
    });
    await writeFile(
      join(root, "chart.txt"),
      `Patient Name: ${NAMES[0]}\nDOB: ${DOBS[0]}\nMRN: ${MRNS[0]}\n\nPatient Name: ${NAMES[1]}\nDate of Birth: ${DOBS[1]}\nMRN: ${MRNS[1]}\nMedical Record Number: ${MRNS[2]}\n`,
      { mode: 0o600 },
    );
    await writeFile(
      join(root, "lab.hl7"),
      `MSH|^~\\&|LAB|CLINIC|EHR|CLINIC|202401011200||ORU^R01|MSG0001|P|2.5\rPID|1||${MRNS[0]}^^^CLINIC||${NAMES[0]!.replace(" ", "^")}||19610412|F\r`,
      { mode: 0o600 },
    );
    const dicom = new Uint8Array(512);
    dicom.set(new TextEncoder().encode("DICM"), 128);
    dicom.set(new TextEncoder().encode(NAMES[1]!), 200);
    await writeFile(join(root, "ct-0001.dcm"), dicom, { mode: 0o600 });
    await writeFile(join(root, "readme.txt"), "nothing sensitive here; version 1.2.3, build 2024-01-01");
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("counts types and locations, and not one fake value (nor its digits) reaches the result", async () => {
    const host = { ...createFakeHost({ platform: "linux" }), fs: createHostFs() };
    const scope = { mode: "host" as const, hosts: ["127.0.0.1"], given: [] };
    const [result] = await runPhases({ host, phases: [ephiFlowPhase], scope, options: { ephiPaths: [root] } });
    expect(PhaseResultSchema.parse(result).status).toBe("ok");
    const facts = result!.facts as {
      files_scanned: number;
      files_flagged: number;
      matches_by_type: Record<string, number>;
    };
    expect(facts.files_scanned).toBe(6);
    expect(facts.files_flagged).toBe(5);
    expect(facts.matches_by_type).toEqual({ ssn: 6, mrn: 3, dob_with_name: 2, hl7_v2: 1, dicom: 1 });
    const findingIds = result!.findings.map((f) => f.id);
    expect(findingIds).toContain(findingId("ephi_flow.ephi_at_rest", root));
    expect(findingIds).toContain(findingId("ephi_flow.ephi_world_readable", root));

    const json = JSON.stringify(result);
    for (const value of [...SSNS, ...MRNS, ...DOBS, ...NAMES]) {
      expect(json).not.toContain(value);
      const digits = value.replace(/\D/g, "");
      if (digits.length > 0) expect(json).not.toContain(digits);
    }
    for (const name of NAMES) for (const part of name.split(" ")) expect(json).not.toContain(part);
  });

  it("reports a configured path that does not exist without failing", async () => {
    const host = { ...createFakeHost({ platform: "win32" }), fs: createHostFs() };
    const scope = { mode: "host" as const, hosts: ["127.0.0.1"], given: [] };
    const [result] = await runPhases({
      host,
      phases: [ephiFlowPhase],
      scope,
      options: { ephiPaths: [join(root, "nope")] },
    });
    expect(result).toMatchObject({ status: "ok", findings: [] });
  });

  it("flags cleartext flows and EHR processes from the connection table", async () => {
    const host = createFakeHost({
      platform: "linux",
      sysinfo: {
        networkConnections: [
          {
            protocol: "tcp",
            localAddress: "10.0.0.5",
            localPort: "51000",
            peerAddress: "10.0.0.9",
            peerPort: "2575",
            state: "ESTABLISHED",
            pid: 42,
            process: "mirth",
          },
          {
            protocol: "tcp",
            localAddress: "10.0.0.5",
            localPort: "51001",
            peerAddress: "10.0.0.10",
            peerPort: "443",
            state: "ESTABLISHED",
            pid: 43,
            process: "openemr",
          },
          {
            protocol: "tcp",
            localAddress: "127.0.0.1",
            localPort: "51002",
            peerAddress: "127.0.0.1",
            peerPort: "80",
            state: "ESTABLISHED",
            pid: 44,
            process: "curl",
          },
        ],
      },
    });
    const scope = { mode: "host" as const, hosts: ["127.0.0.1"], given: [] };
    const [result] = await runPhases({ host, phases: [ephiFlowPhase], scope, options: { ephiPaths: [] } });
    expect((result!.facts as { flows: unknown[] }).flows).toHaveLength(2);
    expect(result!.findings.map((f) => [f.check_id, f.severity, f.category])).toEqual([
      ["ephi_flow.cleartext_flow", "high", "encryption"],
    ]);
  });
});
