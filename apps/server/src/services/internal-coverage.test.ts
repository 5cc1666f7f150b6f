import { describe, expect, it } from "vitest";
import { scopeCovers } from "./internal-coverage.js";

describe("scopeCovers: what a completed phase examined", () => {
  it("host-local phases examine every finding of theirs, whatever the scope", () => {
    const covers = scopeCovers({ mode: "targets", targets: ["127.0.0.0/28"] }, "frontdesk-01");
    expect(covers("disk_encryption", "frontdesk-01")).toBe(true);
    expect(covers("disk_encryption", "10.0.0.9")).toBe(true);
  });

  it("network phases examine the scanning machine, target addresses, hosts inside target CIDRs and named targets", () => {
    const covers = scopeCovers(
      { mode: "targets", targets: ["10.20.0.0/24", "192.168.1.7", "EHR.clinic.lan.", "[fd00::1]", "fd01::/120"] },
      "FrontDesk-01",
    );
    expect(covers("ports", null)).toBe(true);
    expect(covers("ports", "frontdesk-01")).toBe(true);
    expect(covers("ports", "10.20.0.200")).toBe(true);
    expect(covers("ports", "10.20.1.1")).toBe(false);
    expect(covers("tls", "192.168.1.7")).toBe(true);
    expect(covers("tls", "192.168.1.8")).toBe(false);
    expect(covers("segmentation", "ehr.clinic.lan")).toBe(true);
    expect(covers("segmentation", "pacs.clinic.lan")).toBe(false);
    expect(covers("ports", "fd00::1")).toBe(true);
    expect(covers("ports", "fd01::ff")).toBe(true);
    expect(covers("ports", "fd01::1:0")).toBe(false);
  });

  it("host mode examines loopback only; a malformed target covers nothing", () => {
    const host = scopeCovers({ mode: "host", targets: [] }, "exam-03");
    expect(host("ports", "127.0.0.1")).toBe(true);
    expect(host("ports", "::1")).toBe(true);
    expect(host("ports", "10.0.0.1")).toBe(false);
    const bad = scopeCovers({ mode: "targets", targets: ["10.0.0.0/99", "10.0.0.0/x", ""] }, "exam-03");
    expect(bad("ports", "10.0.0.1")).toBe(false);
  });
});
