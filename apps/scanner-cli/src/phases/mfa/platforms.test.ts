import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createFakeHost } from "../../host/fake-host.js";
import { Unavailable } from "../shared/unavailable.js";
import { darwinMfa } from "./darwin.js";
import { windowsMfa } from "./win32.js";

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");
const signal = new AbortController().signal;

describe("MFA readers through the host", () => {
  it("macOS: a configuration profile that enforces smart cards satisfies the check", async () => {
    const host = createFakeHost({
      platform: "darwin",
      commands: {
        // A set boolean prints 1 (the captured shape of `defaults read` for a true value).
        "defaults read /Library/Managed Preferences/com.apple.security.smartcard enforceSmartCard": read(
          "shared/fixtures/darwin-defaults-read-bool-true.txt",
        ),
        "defaults read /Library/Preferences/com.apple.security.smartcard enforceSmartCard": { exitCode: 1 },
      },
    });
    expect(await darwinMfa(host, signal)).toEqual({ facts: { smart_card_enforced: true }, findings: [] });
    expect(await darwinMfa(createFakeHost({ platform: "darwin" }), signal)).toEqual(
      new Unavailable("not_found", "defaults is not available on this machine"),
    );
  });

  it("Windows: a hybrid-joined machine whose user has a Hello for Business key raises nothing", async () => {
    const host = createFakeHost({
      platform: "win32",
      commands: { "dsregcmd /status": read("mfa/fixtures/win32-dsregcmd-status-hybrid.txt") },
    });
    const state = await windowsMfa(host, signal);
    expect(state).toMatchObject({
      facts: { entra_joined: true, domain_joined: true, hello_for_business_key: true },
      findings: [],
    });
  });
});
