import { describe, expect, it } from "vitest";
import { readFixture } from "../test-support/fixtures.js";
import { analyzePage } from "./page-analysis.js";
import { classifyPage, kindOfText } from "./page-kind.js";

const HOME = "https://www.cedarpoint-clinic.example/";

describe("analyzePage", () => {
  const home = analyzePage(HOME, readFixture("html/home-gtm.html"));

  it("reads the title and main heading", () => {
    expect(home.title).toBe("Cedar Point Family Clinic | Primary Care in Cedar Point | Book Online");
    expect(home.headings).toBe("Primary care for the whole family");
  });

  it("resolves links against the page, drops fragments and skips mailto: and tel:", () => {
    const urls = home.links.map((l) => l.url);
    expect(urls).toContain("https://www.cedarpoint-clinic.example/request-an-appointment/");
    expect(urls).toContain("https://portal.cedarpoint-clinic.example/login");
    expect(urls).toContain("https://www.cedarpoint-clinic.example/services/");
    expect(urls.some((u) => u.includes("#"))).toBe(false);
    expect(urls.some((u) => u.startsWith("mailto:") || u.startsWith("tel:"))).toBe(false);
    expect(home.links.find((l) => l.url.endsWith("/notice-of-privacy-practices/"))?.text).toBe(
      "Notice of Privacy Practices",
    );
  });

  it("lists loaded resources, including the GTM iframe inside <noscript>", () => {
    expect(home.resources).toContainEqual({
      url: "https://www.googletagmanager.com/ns.html?id=GTM-ABC1234",
      element: "iframe",
    });
    expect(home.resources).toContainEqual({ url: "https://www.youtube.com/embed/sample-video", element: "iframe" });
    expect(home.resources.filter((r) => r.element === "script").map((r) => new URL(r.url).hostname)).toEqual([
      "www.cedarpoint-clinic.example",
      "www.google.com",
    ]);
  });

  it("keeps inline scripts, where tag snippets build their URLs", () => {
    expect(home.inlineScripts.join("\n")).toContain("https://www.googletagmanager.com/gtm.js?id=");
  });

  it("reads forms with their resolved action, method and fields", () => {
    expect(home.forms).toEqual([
      { action: "https://www.cedarpoint-clinic.example/", method: "get", fields: [{ name: "s", type: "search" }] },
    ]);
    const intake = analyzePage(
      "https://www.oakridge-family.example/new-patient.html",
      readFixture("html/intake-cleartext.html"),
    );
    expect(intake.forms[0]).toMatchObject({
      action: "http://www.oakridge-family.example/cgi-bin/formmail.pl",
      method: "post",
    });
    expect(intake.forms[0]?.fields.map((f) => f.name)).toEqual([
      "first_name",
      "last_name",
      "DOB",
      "ssn",
      "insurance_carrier",
      "member_id",
      "medications",
    ]);
  });

  it("notices a password field", () => {
    const portal = analyzePage(
      "https://www.cedarpoint-clinic.example/portal/",
      readFixture("html/portal-login-meta-hotjar.html"),
    );
    expect(portal.hasPasswordField).toBe(true);
    expect(home.hasPasswordField).toBe(false);
  });

  it("survives broken markup", () => {
    const page = analyzePage(
      HOME,
      "<html><body><a href='/x'>unclosed <form action=><input name=q><script>var a='</b>'",
    );
    // The parser closes what the page left open, as a browser would.
    expect(page.links.map((l) => l.url)).toEqual(["https://www.cedarpoint-clinic.example/x"]);
    expect(page.forms).toHaveLength(1);
  });
});

describe("classifyPage", () => {
  it.each([
    ["https://c.example/patient-portal/", "Welcome", "portal"],
    ["https://c.example/request-an-appointment/", "", "scheduling"],
    ["https://c.example/new-patients/", "", "intake"],
    ["https://c.example/forms/", "Patient forms", "intake"],
    ["https://c.example/account/signin", "", "login"],
    ["https://c.example/about-us/", "About our doctors", "general"],
    ["https://c.example/blog/find-us-on-facebook", "", "general"],
    ["https://c.example/library/book-reviews", "", "general"],
    ["https://c.example/online-booking", "", "scheduling"],
    ["https://c.example/", "Book an appointment online", "scheduling"],
  ])("classifies %s (heading %j) as %s", (url, headings, kind) => {
    expect(classifyPage(url, { headings, hasPasswordField: false })).toBe(kind);
  });

  it("treats any page with a password field as a login page", () => {
    expect(classifyPage("https://c.example/welcome", { headings: "Hello", hasPasswordField: true })).toBe("login");
  });

  it("reads link words the same way", () => {
    expect(kindOfText("Patient Portal")).toBe("portal");
    expect(kindOfText("MyChart (hospital records)")).toBe("portal");
    expect(kindOfText("Our services")).toBe("general");
  });
});
