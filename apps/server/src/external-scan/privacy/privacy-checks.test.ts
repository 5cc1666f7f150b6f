import { describe, expect, it } from "vitest";
import { readFixture } from "../test-support/fixtures.js";
import type { CrawledPage } from "./crawl.js";
import { evaluateForms, isPatientForm } from "./forms-check.js";
import { analyzePage } from "./page-analysis.js";
import { classifyPage } from "./page-kind.js";
import { evaluatePrivacyNotice } from "./privacy-notice-check.js";
import { evaluateTrackers, type TrackedPage, trackedPages } from "./trackers-check.js";

function crawled(url: string, html: string, depth = 0): CrawledPage {
  const analysis = analyzePage(url, html);
  return { url, depth, status: 200, set_cookies: [], kind: classifyPage(url, analysis), analysis };
}
const fixturePage = (url: string, fixture: string) => crawled(url, readFixture(`html/${fixture}`));

describe("evaluateTrackers", () => {
  const site = "www.cedarpoint-clinic.example";
  const pages = trackedPages(
    [
      fixturePage(`https://${site}/`, "home-gtm.html"),
      fixturePage(`https://${site}/portal/login`, "portal-login-meta-hotjar.html"),
      fixturePage(`https://${site}/services/`, "home-gtm.html"),
    ],
    "cedarpoint-clinic.example",
    site,
  );

  it("raises a high, grade-capping finding per tracker on a login page", () => {
    const sensitive = evaluateTrackers(site, pages).filter((f) => f.check_id === "privacy.trackers.authenticated_page");
    expect(sensitive.map((f) => [f.title, f.severity, f.grade_cap])).toEqual([
      ["Meta Pixel runs on patient login pages", "high", "phi_tracker_on_authenticated_page"],
      ["Hotjar runs on patient login pages", "high", "phi_tracker_on_authenticated_page"],
    ]);
    expect(sensitive[0]?.evidence).toEqual({
      tracker: "Meta Pixel",
      vendor: "Meta",
      kind: "ad_pixel",
      pages: [{ path: "/portal/login", kind: "login" }],
    });
    expect(sensitive[0]?.id).toBe("privacy.trackers.authenticated_page:meta_pixel@www.cedarpoint-clinic.example");
  });

  it("reports a tag manager on public pages once, listing the pages, at low severity", () => {
    const publicFindings = evaluateTrackers(site, pages).filter((f) => f.check_id === "privacy.trackers.public_page");
    expect(publicFindings.map((f) => [f.title, f.severity])).toEqual([
      ["Google Tag Manager runs on the public website", "low"],
    ]);
    expect((publicFindings[0]!.evidence.pages as { path: string }[]).map((p) => p.path)).toEqual(["/", "/services/"]);
  });

  it("weighs ad pixels and session replay on public pages above analytics", () => {
    const page = (name: string, kind: TrackedPage["trackers"][number]["kind"]): TrackedPage => ({
      url: `https://${site}/`,
      kind: "general",
      trackers: [{ id: name, name, vendor: name, kind }],
    });
    const severity = (kind: TrackedPage["trackers"][number]["kind"]) =>
      evaluateTrackers(site, [page("t", kind)])[0]?.severity;
    expect([severity("ad_pixel"), severity("session_replay"), severity("analytics"), severity("tag_manager")]).toEqual([
      "medium",
      "medium",
      "low",
      "low",
    ]);
  });

  it("finds nothing on a site without trackers", () => {
    expect(evaluateTrackers(site, [{ url: `https://${site}/`, kind: "general", trackers: [] }])).toEqual([]);
  });
});

describe("evaluatePrivacyNotice", () => {
  it("accepts a Notice of Privacy Practices link in the footer", () => {
    expect(
      evaluatePrivacyNotice("c.example", [fixturePage("https://www.cedarpoint-clinic.example/", "home-gtm.html")]),
    ).toEqual([]);
  });

  it("reports a site with no privacy link at all (medium)", () => {
    const findings = evaluatePrivacyNotice("c.example", [
      fixturePage("https://www.oakridge-family.example/new-patient.html", "intake-cleartext.html"),
    ]);
    expect(findings.map((f) => [f.check_id, f.severity])).toEqual([["privacy.notice.missing", "medium"]]);
  });

  it("reports a privacy policy that is not the HIPAA notice (low)", () => {
    const page = crawled("https://c.example/", '<footer><a href="/privacy-policy">Privacy Policy</a></footer>');
    expect(evaluatePrivacyNotice("c.example", [page]).map((f) => f.check_id)).toEqual(["privacy.notice.npp_missing"]);
  });

  it("counts a crawled page that is itself the notice", () => {
    const page = crawled("https://c.example/hipaa", "<h1>Notice of Privacy Practices</h1>");
    expect(evaluatePrivacyNotice("c.example", [page])).toEqual([]);
  });
});

describe("evaluateForms", () => {
  it("reports a patient intake form posting over HTTP as critical and grade-capping", () => {
    const page = fixturePage("https://www.oakridge-family.example/new-patient.html", "intake-cleartext.html");
    const findings = evaluateForms("www.oakridge-family.example", [page]);
    expect(findings.map((f) => [f.check_id, f.severity, f.grade_cap])).toEqual([
      ["privacy.forms.cleartext_patient_form", "critical", "cleartext_phi_form"],
    ]);
    expect(findings[0]?.evidence).toMatchObject({
      forms: [
        { action: "http://www.oakridge-family.example/cgi-bin/formmail.pl", method: "post" },
        { action: "http://www.oakridge-family.example/newsletter", method: "get", fields: ["q"] },
      ],
    });
  });

  it("reports a cleartext search box as medium only", () => {
    const page = crawled(
      "https://c.example/",
      '<form action="http://c.example/search"><input type="search" name="q"></form>',
    );
    expect(evaluateForms("c.example", [page]).map((f) => [f.check_id, f.severity])).toEqual([
      ["privacy.forms.cleartext_form", "medium"],
    ]);
  });

  it("treats a relative form on a plain-HTTP page as cleartext", () => {
    const page = crawled(
      "http://c.example/contact",
      '<form action="/send" method="post"><input name="email" type="email"></form>',
    );
    expect(evaluateForms("c.example", [page]).map((f) => f.check_id)).toEqual(["privacy.forms.cleartext_patient_form"]);
  });

  it("leaves HTTPS forms alone", () => {
    expect(
      evaluateForms("c.example", [
        fixturePage("https://brightside.example/schedule", "scheduling-session-replay.html"),
      ]),
    ).toEqual([]);
  });

  it("knows a patient form by its page or its fields", () => {
    const form = (fields: { name: string; type: string }[]) => ({
      action: "http://c.example/",
      method: "post" as const,
      fields,
    });
    expect(isPatientForm(form([{ name: "q", type: "text" }]), { kind: "general" })).toBe(false);
    expect(isPatientForm(form([{ name: "q", type: "text" }]), { kind: "intake" })).toBe(false);
    expect(isPatientForm(form([{ name: "comments", type: "textarea" }]), { kind: "general" })).toBe(true);
    expect(isPatientForm(form([{ name: "field_7", type: "text" }]), { kind: "scheduling" })).toBe(true);
  });
});
