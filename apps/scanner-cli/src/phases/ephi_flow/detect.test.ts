import { describe, expect, it } from "vitest";
import { detectEphi, isDicom } from "./detect.js";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("ePHI detectors", () => {
  it("counts valid dashed SSNs and ignores impossible ones", () => {
    expect(detectEphi(bytes("a 219-09-9999 b 078-05-1120 c"))).toEqual({ ssn: 2 });
    expect(detectEphi(bytes("000-12-3456 666-12-3456 912-12-3456 123-00-4567 123-45-0000 1234-56-7890"))).toEqual({});
  });

  it("counts MRNs by their label", () => {
    expect(detectEphi(bytes("MRN: 00482913\nMedical Record Number # A1234567\nmrn 12"))).toEqual({ mrn: 2 });
  });

  it("counts a date of birth only when the file also names a person", () => {
    expect(detectEphi(bytes("Patient Name: Test Person\nDOB: 04/12/1961"))).toEqual({ dob_with_name: 1 });
    expect(detectEphi(bytes("Build date of birth of the release: DOB 2020-01-01"))).toEqual({});
  });

  it("recognises HL7 v2 messages and DICOM Part 10 files", () => {
    expect(detectEphi(bytes("MSH|^~\\&|LAB|HOSP|EHR|HOSP|202401011200||ORU^R01|1|P|2.5\rPID|1||..."))).toEqual({
      hl7_v2: 1,
    });
    const dicom = new Uint8Array(256);
    dicom.set(bytes("DICM"), 128);
    expect(isDicom(dicom)).toBe(true);
    expect(detectEphi(dicom)).toEqual({ dicom: 1 });
    expect(detectEphi(new Uint8Array([0, 1, 2, 3]))).toEqual({});
  });
});
