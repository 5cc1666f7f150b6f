import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseUfwStatus } from "./parse.js";

describe("segmentation parsers", () => {
  it("reads ufw status as captured on this Debian machine", () => {
    const text = readFileSync(new URL("./fixtures/linux-ufw-status-inactive.txt", import.meta.url), "utf8");
    expect(parseUfwStatus(text)).toBe("inactive");
    expect(
      parseUfwStatus(
        "Status: active\nLogging: on (low)\nDefault: deny (incoming), allow (outgoing), disabled (routed)\n",
      ),
    ).toBe("active");
    expect(parseUfwStatus("ERROR: You need to be root to run this script")).toBeNull();
  });
});
