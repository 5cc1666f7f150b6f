import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defaultsBool, defaultsString, parseDefaultsDomain, parseDefaultsKey } from "./defaults-read.js";

const fixture = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

describe("defaults read", () => {
  it("parses a whole domain: scalars, quoted keys, nested lists and dictionaries", () => {
    const d = parseDefaultsDomain(fixture("patches/fixtures/darwin-defaults-softwareupdate-pending.txt"))!;
    expect(defaultsString(d, "LastAttemptBuildVersion")).toBe("10.15.7 (19H114)");
    expect(d.PrimaryLanguages).toEqual(["en-LT", "en-GB"]);
    expect(d.RecommendedUpdates).toHaveLength(3);
    expect((d.RecommendedUpdates as { "Display Name": string }[])[0]?.["Display Name"]).toBe("Safari");
    expect(defaultsString(d, "RecommendedUpdates")).toBeUndefined();
  });

  it("skips what precedes the dictionary and rejects text that is not one", () => {
    const login = parseDefaultsDomain(fixture("access_control/fixtures/darwin-defaults-loginwindow.txt"))!;
    expect(defaultsString(login, "GuestEnabled")).toBe("0");
    expect(parseDefaultsDomain(`sudo: a password is required\n${"{"} Key = "unterminated; }`)).toBeNull();
    expect(parseDefaultsDomain("no dictionary here")).toBeNull();
  });

  it("reads single keys: a value, or null when defaults says the key is unset", () => {
    expect(parseDefaultsKey(fixture("shared/fixtures/darwin-defaults-read-bool-true.txt"))).toBe("1");
    expect(parseDefaultsKey(fixture("shared/fixtures/darwin-defaults-read-missing-key.txt"))).toBeNull();
    expect(parseDefaultsKey("")).toBeUndefined();
  });

  it("reads the spellings of booleans", () => {
    expect(["1", "YES", "True", "0", "NO", "False", "maybe", undefined].map(defaultsBool)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      undefined,
      undefined,
    ]);
  });
});
