import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { eventLogFacts, eventLogFinding, eventLogShortfalls, parseWevtutilGl } from "./windows-event-logs.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const security = fixture("win32-wevtutil-gl-security.txt");
const application = fixture("win32-wevtutil-gl-application.txt");

describe("Windows event logs (wevtutil gl)", () => {
  it("reads the Security log of a stock Windows 11 PC: 20 MB, overwritten when full", () => {
    const log = parseWevtutilGl(security)!;
    expect(log).toEqual({
      name: "Security",
      enabled: true,
      retention: false,
      autoBackup: false,
      maxSizeBytes: 20_971_520,
    });
    expect(eventLogFacts(log)).toEqual({
      name: "Security",
      enabled: true,
      max_size_kb: 20_480,
      when_full: "overwrite_oldest",
    });
    // The Application capture ends its last line with spaces, as printed.
    expect(parseWevtutilGl(application)).toMatchObject({ name: "Application", maxSizeBytes: 2_097_152 });
  });

  it("names each log below the baseline; the Security log makes it medium", () => {
    const shortfalls = eventLogShortfalls([parseWevtutilGl(security)!, parseWevtutilGl(application)!]);
    expect(shortfalls.map((s) => [s.log, s.problem, s.maxSizeKb, s.baselineKb])).toEqual([
      ["Security", "too_small", 20_480, 196_608],
      ["Application", "too_small", 2_048, 32_768],
    ]);
    const finding = eventLogFinding(shortfalls)!;
    expect(finding).toMatchObject({
      id: "access_control.event_log_too_small",
      severity: "medium",
      controls: ["164.312(b)", "164.316(b)(2)(i)"],
    });
    expect(finding.detail).toContain("Security is 20,480 KB and overwrites its oldest events when full");
    expect(finding.detail).toContain("Application is 2,048 KB");
  });

  it("only Application or System too small: low", () => {
    const finding = eventLogFinding(eventLogShortfalls([parseWevtutilGl(application)!]))!;
    expect(finding.severity).toBe("low");
  });

  it("a log at the baseline, or archived when full, keeps its evidence; a disabled log does not", () => {
    const sized = parseWevtutilGl(security.replace("maxSize: 20971520", "maxSize: 201326592"))!;
    const archived = parseWevtutilGl(security.replace("autoBackup: false", "autoBackup: true"))!;
    expect(eventLogShortfalls([sized, archived])).toEqual([]);
    expect(eventLogFinding([])).toBeNull();
    // "Do not overwrite events": small and refusing new ones once full is still a shortfall.
    const keepsOld = parseWevtutilGl(security.replace("retention: false", "retention: true"))!;
    expect(eventLogShortfalls([keepsOld])[0]).toMatchObject({ problem: "too_small", whenFull: "stop_recording" });
    const disabled = parseWevtutilGl(
      security.replace("name: Security", "name: System").replace("enabled: true", "enabled: false"),
    )!;
    expect(eventLogShortfalls([disabled])[0]).toMatchObject({ log: "System", problem: "disabled" });
    // Asked as `gl security`, wevtutil answers `name: security`: still the Security log.
    const lower = parseWevtutilGl(security.replace("name: Security", "name: security"))!;
    expect(eventLogShortfalls([lower])[0]).toMatchObject({ log: "Security", problem: "too_small" });
    // A log outside the baseline is not judged.
    expect(eventLogShortfalls([parseWevtutilGl(security.replace("name: Security", "name: Setup"))!])).toEqual([]);
  });

  it("does not read an error or translated property names", () => {
    expect(parseWevtutilGl("Failed to read configuration for log Security. Access is denied.")).toBeNull();
    expect(parseWevtutilGl(security.replace("maxSize:", "maximale Größe:"))).toBeNull();
    expect(parseWevtutilGl(security.replace("enabled: true", "enabled: wahr"))).toBeNull();
  });
});
