import { describe, expect, it } from "vitest";
import { exceededFindingLimit, findingHost } from "./upload-limits.js";

const limits = { findings_per_host: 3, hosts_per_upload: 2, findings_per_upload: 5, upload_bytes: 1000 };
const doc = (...hosts: (string | undefined)[]) => ({
  host: { hostname: "FrontDesk-01" },
  phases: [{ findings: hosts.map((host) => (host ? { host } : {})) }],
});

describe("scan upload limits", () => {
  it("counts a finding without host against the scanning machine (lower-cased, as the server stores it)", () => {
    expect(findingHost({}, "FrontDesk-01")).toBe("frontdesk-01");
    expect(findingHost({ host: "10.0.0.5" }, "FrontDesk-01")).toBe("10.0.0.5");
    expect(findingHost("not a finding", "h")).toBe("h");
  });

  it("reports the most specific limit exceeded, with the count and the host", () => {
    expect(exceededFindingLimit(doc(undefined, undefined, undefined), limits)).toBeNull();
    expect(exceededFindingLimit(doc(undefined, "a", "a", "a", "a"), limits)).toEqual({
      limit: "findings_per_host",
      max: 3,
      actual: 4,
      host: "a",
    });
    expect(exceededFindingLimit(doc(undefined, "a", "b"), limits)).toEqual({
      limit: "hosts_per_upload",
      max: 2,
      actual: 3,
    });
    expect(exceededFindingLimit(doc(undefined, undefined, undefined, "a", "a", "a"), limits)).toEqual({
      limit: "findings_per_upload",
      max: 5,
      actual: 6,
    });
  });
});
