import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { notificationClock } from "./breach-clock.js";
import { determineBreach } from "./breach-determination.js";
import { addDays, CalendarDateSchema, daysBetween } from "./calendar-date.js";

const base = { residents_by_state: {}, law_enforcement_delay_days: 0, sent: {} };
const byRecipient = (d: ReturnType<typeof notificationClock>) => Object.fromEntries(d.map((x) => [x.recipient, x]));

describe("breach notification clock (164.404, 164.406, 164.408)", () => {
  it("gives individuals 60 calendar days from discovery, across a leap day", () => {
    const c = byRecipient(
      notificationClock({ ...base, discovered_on: "2024-01-15", individuals_affected: 20 }, "2024-01-20"),
    );
    // 2024-01-15 + 60 days: 16 left in January, 29 in February (leap year), 15 in March.
    expect(c.individuals).toMatchObject({
      required: true,
      due_on: "2024-03-15",
      status: "pending",
      days_remaining: 55,
    });
    const plain = byRecipient(
      notificationClock({ ...base, discovered_on: "2023-01-15", individuals_affected: 20 }, "2023-01-20"),
    );
    expect(plain.individuals?.due_on).toBe("2023-03-16");
  });

  it("crosses a year end", () => {
    const c = byRecipient(
      notificationClock({ ...base, discovered_on: "2025-12-10", individuals_affected: 3 }, "2025-12-10"),
    );
    expect(c.individuals?.due_on).toBe("2026-02-08");
  });

  it("puts a breach under 500 in the annual log due 60 days after year end: 1 March, or 29 February before a leap year", () => {
    const y2023 = byRecipient(
      notificationClock({ ...base, discovered_on: "2023-06-01", individuals_affected: 499 }, "2023-06-02"),
    );
    expect(y2023.hhs).toMatchObject({ due_on: "2024-02-29", controls: ["164.408(c)"] });
    const y2024 = byRecipient(
      notificationClock({ ...base, discovered_on: "2024-12-31", individuals_affected: 1 }, "2025-01-02"),
    );
    expect(y2024.hhs?.due_on).toBe("2025-03-01");
  });

  it("tells HHS with the individuals at 500 or more, and the media above 500 residents of one State", () => {
    const c = byRecipient(
      notificationClock(
        { ...base, discovered_on: "2024-11-20", individuals_affected: 900, residents_by_state: { OR: 501, WA: 399 } },
        "2024-11-21",
      ),
    );
    expect(c.hhs).toMatchObject({ due_on: "2025-01-19", controls: ["164.408(b)"] });
    expect(c.media).toMatchObject({ required: true, due_on: "2025-01-19" });
    expect(c.media?.basis).toContain("OR");
    const exactly500 = byRecipient(
      notificationClock(
        { ...base, discovered_on: "2024-11-20", individuals_affected: 500, residents_by_state: { OR: 500 } },
        "2024-11-21",
      ),
    );
    expect(exactly500.media?.required).toBe(false);
    expect(exactly500.hhs?.controls).toEqual(["164.408(b)"]);
  });

  it("reports overdue, sent and sent late; a law enforcement delay moves the 60-day deadlines", () => {
    const input = { ...base, discovered_on: "2024-02-29", individuals_affected: 10 };
    expect(byRecipient(notificationClock(input, "2024-04-29")).individuals).toMatchObject({
      due_on: "2024-04-29",
      status: "pending",
      days_remaining: 0,
    });
    expect(byRecipient(notificationClock(input, "2024-04-30")).individuals).toMatchObject({
      status: "overdue",
      days_remaining: -1,
    });
    expect(
      byRecipient(notificationClock({ ...input, sent: { individuals_on: "2024-04-01" } }, "2024-06-01")).individuals
        ?.status,
    ).toBe("sent");
    expect(
      byRecipient(notificationClock({ ...input, sent: { individuals_on: "2024-05-01" } }, "2024-06-01")).individuals
        ?.status,
    ).toBe("sent_late");
    expect(
      byRecipient(notificationClock({ ...input, law_enforcement_delay_days: 30 }, "2024-04-30")).individuals,
    ).toMatchObject({ due_on: "2024-05-29", status: "pending" });
  });

  it("every deadline is 60 days after discovery or after year end, never before discovery (property)", () => {
    const dates = fc
      .date({ min: new Date("2000-01-01"), max: new Date("2099-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(dates, fc.integer({ min: 1, max: 100_000 }), (discovered, n) => {
        const c = byRecipient(
          notificationClock({ ...base, discovered_on: discovered, individuals_affected: n }, discovered),
        );
        expect(daysBetween(discovered, c.individuals!.due_on!)).toBe(60);
        if (n >= 500) expect(c.hhs!.due_on).toBe(c.individuals!.due_on);
        else expect(daysBetween(`${discovered.slice(0, 4)}-12-31`, c.hhs!.due_on!)).toBe(60);
        expect(c.hhs!.due_on! >= discovered).toBe(true);
      }),
    );
  });

  it("reads only real calendar dates", () => {
    expect(CalendarDateSchema.safeParse("2024-02-29").success).toBe(true);
    expect(CalendarDateSchema.safeParse("2023-02-29").success).toBe(false);
    expect(CalendarDateSchema.safeParse("2024-13-01").success).toBe(false);
    expect(addDays("2099-12-31", 1)).toBe("2100-01-01");
  });
});

describe("breach determination (164.402)", () => {
  const low = {
    data_types: ["demographic" as const],
    recipient: "covered_entity_or_business_associate" as const,
    acquired_or_viewed: "not_acquired" as const,
    mitigation: "returned_or_destroyed_with_assurance" as const,
  };
  it("presumes a breach unless all four factors are low", () => {
    expect(
      determineBreach({ phi_involved: true, phi_secured: false, exclusion: null, risk_assessment: null }).determination,
    ).toBe("breach");
    expect(
      determineBreach({ phi_involved: true, phi_secured: false, exclusion: null, risk_assessment: low }),
    ).toMatchObject({
      determination: "incident",
      low_probability_of_compromise: true,
    });
    const unknownAccess = determineBreach({
      phi_involved: true,
      phi_secured: false,
      exclusion: null,
      risk_assessment: { ...low, acquired_or_viewed: "unknown" },
    });
    expect(unknownAccess.determination).toBe("breach");
    expect(unknownAccess.reason).toContain("acquired or viewed is high");
    const ssn = determineBreach({
      phi_involved: true,
      phi_secured: false,
      exclusion: null,
      risk_assessment: { ...low, data_types: ["ssn"] },
    });
    expect(ssn.factors?.[0]?.risk).toBe("high");
  });
  it("secured PHI, no PHI, and the paragraph (1) exclusions are incidents", () => {
    expect(
      determineBreach({ phi_involved: true, phi_secured: true, exclusion: null, risk_assessment: null }).determination,
    ).toBe("incident");
    expect(
      determineBreach({ phi_involved: false, phi_secured: false, exclusion: null, risk_assessment: null })
        .determination,
    ).toBe("incident");
    expect(
      determineBreach({
        phi_involved: true,
        phi_secured: false,
        exclusion: "recipient_could_not_retain",
        risk_assessment: null,
      }).determination,
    ).toBe("incident");
  });
});
