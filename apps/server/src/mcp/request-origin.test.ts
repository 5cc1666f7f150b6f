import { describe, expect, it } from "vitest";
import { allowedSources, foreignSourceError } from "./request-origin.js";

describe("DNS-rebinding rules of /mcp", () => {
  const behindName = allowedSources("https://hcs.example.com", "0.0.0.0");
  const onLoopback = allowedSources("https://127.0.0.1:8443", "127.0.0.1");

  it("lets clients without an Origin through when Host is a name the server answers to", () => {
    for (const host of ["hcs.example.com", "HCS.example.com:443", "localhost:8443", "127.0.0.1", "[::1]:8443"])
      expect(foreignSourceError(behindName, undefined, host), host).toBeNull();
    expect(foreignSourceError(onLoopback, undefined, "127.0.0.1:8443")).toBeNull();
  });

  it("accepts the server's own origin, however the browser spells it", () => {
    expect(foreignSourceError(behindName, "https://hcs.example.com", "hcs.example.com")).toBeNull();
    expect(foreignSourceError(behindName, "HTTPS://HCS.EXAMPLE.COM:443", "hcs.example.com")).toBeNull();
    expect(foreignSourceError(onLoopback, "https://127.0.0.1:8443", "127.0.0.1:8443")).toBeNull();
  });

  it("refuses any other origin, an opaque one included", () => {
    for (const origin of ["https://evil.example", "http://hcs.example.com", "https://hcs.example.com:8443", "null"])
      expect(foreignSourceError(behindName, origin, "hcs.example.com")?.code, origin).toBe("forbidden");
    // Same host and port over another scheme or port is another origin too.
    expect(foreignSourceError(onLoopback, "http://localhost:6274", "127.0.0.1:8443")?.details).toEqual({
      origin: "http://localhost:6274",
    });
  });

  it("refuses a Host the server does not answer to, and a missing or malformed one", () => {
    for (const host of ["evil.example", "10.0.0.5:8443", "", "bad host", undefined])
      expect(foreignSourceError(behindName, undefined, host)?.code, String(host)).toBe("forbidden");
  });

  it("answers to its bind address unless that is a wildcard", () => {
    const bound = allowedSources("https://hcs.example.com", "10.0.0.5");
    expect(foreignSourceError(bound, undefined, "10.0.0.5:8443")).toBeNull();
    expect(foreignSourceError(allowedSources("https://hcs.example.com", "::"), undefined, "[::]:8443")?.code).toBe(
      "forbidden",
    );
  });
});
