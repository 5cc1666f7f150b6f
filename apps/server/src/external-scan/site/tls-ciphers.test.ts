import { describe, expect, it } from "vitest";
import { catalogueDisagreement } from "../finding-catalogue.js";
import type { TlsProbeIO, TlsSuiteOfferRequest, TlsVersion } from "../io/types.js";
import { judgeSuite, judgeVersion } from "./cipher-suite-verdict.js";
import { CIPHER_SUITES, parseSuiteName, suiteByName } from "./cipher-suites.js";
import { enumerateSuites, type SuiteEnumeration } from "./suite-enumeration.js";
import { cipherSuiteFacts, evaluateCipherSuites } from "./tls-ciphers-check.js";

const suite = (name: string) => {
  const s = suiteByName(name);
  if (!s) throw new Error(`unknown suite ${name}`);
  return s;
};

describe("the suite table", () => {
  it("names every suite once, by code, IANA name and OpenSSL name", () => {
    expect(new Set(CIPHER_SUITES.map((s) => s.code)).size).toBe(CIPHER_SUITES.length);
    expect(new Set(CIPHER_SUITES.map((s) => s.iana)).size).toBe(CIPHER_SUITES.length);
    expect(new Set(CIPHER_SUITES.map((s) => s.openssl)).size).toBe(CIPHER_SUITES.length);
    expect(CIPHER_SUITES.length).toBeGreaterThan(100);
  });

  it("reads key exchange, cipher, mode, MAC and versions from the IANA name", () => {
    expect(suite("ECDHE-RSA-AES128-GCM-SHA256")).toMatchObject({
      keyExchange: "ECDHE",
      authentication: "RSA",
      forwardSecrecy: true,
      cipher: "AES",
      keyBits: 128,
      mode: "GCM",
      mac: "AEAD",
      versions: ["TLSv1.2"],
    });
    expect(suite("TLS_RSA_WITH_AES_256_CBC_SHA")).toMatchObject({
      keyExchange: "RSA",
      forwardSecrecy: false,
      mode: "CBC",
      mac: "SHA1",
      versions: ["TLSv1", "TLSv1.1", "TLSv1.2"],
    });
    expect(suite("TLS_RSA_EXPORT_WITH_RC4_40_MD5")).toMatchObject({
      exportGrade: true,
      cipher: "RC4",
      keyBits: 40,
      mac: "MD5",
      versions: ["TLSv1"],
    });
    expect(suite("TLS_DH_anon_WITH_AES_128_CBC_SHA").authentication).toBe("anonymous");
    expect(suite("TLS_AES_128_CCM_8_SHA256")).toMatchObject({
      keyExchange: "TLS1.3",
      mode: "CCM_8",
      versions: ["TLSv1.3"],
    });
    expect(suite("TLS_RSA_WITH_AES_128_CCM_8")).toMatchObject({ mode: "CCM_8", mac: "AEAD", versions: ["TLSv1.2"] });
    expect(suite("TLS_RSA_WITH_3DES_EDE_CBC_SHA")).toMatchObject({ cipher: "3DES", keyBits: 112 });
  });

  it("refuses names it cannot read rather than guessing", () => {
    expect(() => parseSuiteName(0xffff, "TLS_FOO_WITH_AES_128_CBC_SHA", "X")).toThrow(RangeError);
    expect(() => parseSuiteName(0xffff, "TLS_RSA_WITH_GOST_CBC_SHA", "X")).toThrow(RangeError);
    expect(() => parseSuiteName(0xffff, "TLS_RSA_WITH_AES_128_CBC_WHIRLPOOL", "X")).toThrow(RangeError);
  });
});

describe("SP 800-52r2 judgement", () => {
  it("recommends ephemeral AES-GCM/CCM and the TLS 1.3 AES suites, accepts ephemeral AES-CBC", () => {
    expect(judgeSuite(suite("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384")).verdict).toBe("recommended");
    expect(judgeSuite(suite("TLS_DHE_RSA_WITH_AES_128_CCM")).verdict).toBe("recommended");
    expect(judgeSuite(suite("TLS_AES_256_GCM_SHA384")).verdict).toBe("recommended");
    expect(judgeSuite(suite("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256"))).toEqual({
      verdict: "acceptable",
      reason: "CBC mode (prefer GCM or CCM)",
      problems: ["cbc_mode"],
    });
  });

  it("does not list static RSA, DSA or ciphers NIST has not approved, and reports only real problems", () => {
    expect(judgeSuite(suite("TLS_RSA_WITH_AES_128_GCM_SHA256"))).toMatchObject({
      verdict: "not_listed",
      problems: ["no_forward_secrecy"],
    });
    expect(judgeSuite(suite("TLS_RSA_WITH_AES_128_CBC_SHA")).problems).toEqual(["no_forward_secrecy", "cbc_mode"]);
    expect(judgeSuite(suite("TLS_CHACHA20_POLY1305_SHA256"))).toMatchObject({ verdict: "not_listed", problems: [] });
    expect(judgeSuite(suite("TLS_ECDHE_RSA_WITH_ARIA_128_GCM_SHA256")).verdict).toBe("not_listed");
    expect(judgeSuite(suite("TLS_DHE_DSS_WITH_AES_128_GCM_SHA256")).verdict).toBe("not_listed");
  });

  it("disallows NULL, anonymous, export and broken ciphers", () => {
    for (const name of [
      "TLS_RSA_WITH_NULL_SHA256",
      "TLS_ECDH_anon_WITH_AES_128_CBC_SHA",
      "TLS_RSA_EXPORT_WITH_DES40_CBC_SHA",
      "TLS_RSA_WITH_RC4_128_SHA",
      "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA",
      "TLS_RSA_WITH_IDEA_CBC_SHA",
    ]) {
      expect([name, judgeSuite(suite(name)).verdict]).toEqual([name, "disallowed"]);
      expect(judgeSuite(suite(name)).problems).toContain("insecure");
    }
  });

  it("reads a version as conforming only when it is TLS 1.2+ and every suite is listed", () => {
    const good = judgeVersion("TLSv1.2", [suite("ECDHE-RSA-AES128-GCM-SHA256"), suite("ECDHE-RSA-AES128-SHA")]);
    expect(good).toMatchObject({ sp800_52r2: "conforms", not_conforming: {} });
    const legacy = judgeVersion("TLSv1", [suite("ECDHE-RSA-AES128-SHA")]);
    expect(legacy.sp800_52r2).toBe("does_not_conform");
    expect(Object.keys(legacy.not_conforming)).toEqual(["TLSv1"]);
    const rsa = judgeVersion("TLSv1.2", [suite("AES128-GCM-SHA256")]);
    expect(rsa.not_conforming).toEqual({
      TLS_RSA_WITH_AES_128_GCM_SHA256: "not_listed: static key transport: no forward secrecy",
    });
  });
});

const enumeration = (byVersion: Partial<Record<TlsVersion, string[]>>): SuiteEnumeration => ({
  byVersion: Object.fromEntries(
    Object.entries(byVersion).map(([v, accepted]) => [v, { accepted, complete: true }]),
  ) as SuiteEnumeration["byVersion"],
  handshakes: 10,
  notTestable: ["TLS_RSA_WITH_RC4_128_SHA"],
});

describe("evaluateCipherSuites", () => {
  const HOST = "www.clinic.example";

  it("reports nothing for a server that accepts only SP 800-52r2's recommended suites", () => {
    const e = enumeration({
      "TLSv1.2": ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"],
      "TLSv1.3": ["TLS_AES_128_GCM_SHA256"],
    });
    expect(evaluateCipherSuites(HOST, 443, e)).toEqual([]);
    expect(cipherSuiteFacts(e)).toMatchObject({
      versions: { "TLS 1.2": { sp800_52r2: "conforms" }, "TLS 1.3": { sp800_52r2: "conforms" } },
      not_testable_by_this_client: ["TLS_RSA_WITH_RC4_128_SHA"],
    });
  });

  it("reports one finding per problem class, listing the offending suites per version", () => {
    const e = enumeration({
      TLSv1: ["TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_128_CBC_SHA"],
      "TLSv1.2": [
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_RSA_WITH_AES_128_CBC_SHA",
        "TLS_RSA_WITH_AES_256_CBC_SHA",
      ],
    });
    const findings = evaluateCipherSuites(HOST, 443, e);
    expect(findings.map((f) => [f.check_id, f.severity])).toEqual([
      ["app.tls_ciphers.no_forward_secrecy", "medium"],
      ["app.tls_ciphers.cbc_mode", "low"],
    ]);
    expect(findings[0]?.evidence).toEqual({
      port: 443,
      suites: {
        "TLS 1.0": ["TLS_RSA_WITH_AES_128_CBC_SHA"],
        "TLS 1.2": ["TLS_RSA_WITH_AES_128_GCM_SHA256", "TLS_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_256_CBC_SHA"],
      },
    });
    expect(findings[0]?.title).toBe("Cipher suites without forward secrecy accepted (4 suites)");
    expect(findings[1]?.evidence).toMatchObject({
      suites: { "TLS 1.0": ["TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_128_CBC_SHA"] },
    });
    // The ids are stable per site and the catalogue agrees with every finding.
    expect(findings[0]?.id).toBe("app.tls_ciphers.no_forward_secrecy:www.clinic.example:443");
    for (const f of findings) expect(catalogueDisagreement(f)).toBeNull();
  });

  it("grades NULL, anonymous and export suites critical, broken ciphers alone high", () => {
    const nullSuite = evaluateCipherSuites(
      HOST,
      443,
      enumeration({ "TLSv1.2": ["TLS_DH_anon_WITH_AES_128_GCM_SHA256"] }),
    );
    expect(nullSuite.map((f) => [f.check_id, f.severity])).toEqual([["app.tls_ciphers.insecure", "critical"]]);
    const broken = evaluateCipherSuites(
      HOST,
      443,
      enumeration({ "TLSv1.2": ["TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA", "TLS_RSA_WITH_RC4_128_SHA"] }),
    );
    expect(broken.map((f) => [f.check_id, f.severity])).toEqual([
      ["app.tls_ciphers.insecure", "high"],
      ["app.tls_ciphers.no_forward_secrecy", "medium"],
      ["app.tls_ciphers.cbc_mode", "low"],
    ]);
    for (const f of [...nullSuite, ...broken]) expect(catalogueDisagreement(f)).toBeNull();
  });

  it("says when a version's list is incomplete instead of calling it conforming", () => {
    const e: SuiteEnumeration = {
      byVersion: {
        "TLSv1.2": { accepted: ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"], complete: false, detail: "timeout" },
      },
      handshakes: 3,
      notTestable: [],
    };
    expect(cipherSuiteFacts(e)).toMatchObject({
      versions: { "TLS 1.2": { sp800_52r2: "incomplete", complete: false, detail: "timeout" } },
    });
  });
});

/**
 * A scripted server: it accepts `accepted` (OpenSSL names) at each version and picks the first of them that the
 * client offers, as a server with its own preference order does.
 */
function scriptedTls(
  accepted: Partial<Record<TlsVersion, string[]>>,
  o: { cannotOffer?: string[]; fail?: (r: TlsSuiteOfferRequest) => boolean } = {},
) {
  const offers: TlsSuiteOfferRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const io: TlsProbeIO = {
    handshake: async () => ({ ok: false, code: "handshake_failed" }),
    canOffer: (name) => !(o.cannotOffer ?? []).includes(name),
    offerSuites: async (request) => {
      offers.push(request);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      if (o.fail?.(request)) return { ok: false, code: "timeout" };
      const chosen = (accepted[request.version] ?? []).find((s) => request.suites.includes(s));
      return chosen ? { ok: true, suite: suite(chosen).iana } : { ok: false, code: "handshake_failed" };
    },
  };
  return { io, offers, maxInFlight: () => maxInFlight };
}

describe("enumerateSuites", () => {
  const base = {
    address: "127.0.0.1",
    port: 443,
    servername: "www.clinic.example",
    signal: new AbortController().signal,
  };

  it("finds every accepted suite with one handshake per accepted suite plus one per class", async () => {
    const server = scriptedTls({
      "TLSv1.2": ["ECDHE-RSA-AES128-GCM-SHA256", "AES128-SHA", "ECDHE-RSA-AES256-SHA", "AES256-GCM-SHA384"],
      "TLSv1.3": ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"],
    });
    const result = await enumerateSuites({ ...base, tls: server.io, versions: ["TLSv1.2", "TLSv1.3"] });
    expect(result.byVersion["TLSv1.2"]).toEqual({
      accepted: [
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
        "TLS_RSA_WITH_AES_256_GCM_SHA384",
        "TLS_RSA_WITH_AES_128_CBC_SHA",
      ],
      complete: true,
    });
    expect(result.byVersion["TLSv1.3"]?.accepted).toEqual(["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"]);
    // TLS 1.2: 4 accepted + 7 classes (ECDHE, DHE and static, each AEAD or not; anonymous); TLS 1.3: 2 + 1.
    expect(result.handshakes).toBe(14);
    expect(server.offers.length).toBe(14);
    // Each offer held only suites of its version.
    for (const offer of server.offers) {
      for (const name of offer.suites) expect(suite(name).versions).toContain(offer.version);
    }
  });

  it("never offers what the client cannot, and lists it as not testable", async () => {
    const server = scriptedTls({ TLSv1: ["AES128-SHA"] }, { cannotOffer: ["DES-CBC3-SHA", "RC4-SHA"] });
    const result = await enumerateSuites({ ...base, tls: server.io, versions: ["TLSv1"] });
    expect(result.notTestable).toEqual(["TLS_RSA_WITH_3DES_EDE_CBC_SHA", "TLS_RSA_WITH_RC4_128_SHA"]);
    expect(server.offers.flatMap((o) => o.suites)).not.toContain("DES-CBC3-SHA");
    // TLS 1.0 has no GCM or SHA-256 suites to offer.
    expect(server.offers.flatMap((o) => o.suites)).not.toContain("AES128-GCM-SHA256");
  });

  it("keeps to its handshake budget and concurrency, and says the list is incomplete", async () => {
    const everything = CIPHER_SUITES.filter((s) => s.versions.includes("TLSv1.2")).map((s) => s.openssl);
    const server = scriptedTls({ "TLSv1.2": everything });
    const result = await enumerateSuites({
      ...base,
      tls: server.io,
      versions: ["TLSv1.2"],
      limits: { maxHandshakes: 12, concurrency: 2 },
    });
    expect(result.handshakes).toBe(12);
    expect(server.offers.length).toBe(12);
    expect(server.maxInFlight()).toBe(2);
    expect(result.byVersion["TLSv1.2"]).toMatchObject({
      complete: false,
      detail: "handshake budget of 12 spent",
    });
  });

  it("marks a class whose handshake timed out as incomplete, keeping what it found", async () => {
    let calls = 0;
    const server = scriptedTls(
      { "TLSv1.2": ["ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384"] },
      { fail: (r) => r.suites.includes("ECDHE-RSA-AES256-GCM-SHA384") && ++calls > 1 },
    );
    const result = await enumerateSuites({ ...base, tls: server.io, versions: ["TLSv1.2"] });
    expect(result.byVersion["TLSv1.2"]).toEqual({
      accepted: ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"],
      complete: false,
      detail: "timeout",
    });
  });
});
