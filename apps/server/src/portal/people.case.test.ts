import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../secrets/master-key.js";
import type { ServiceDeps } from "../services/deps.js";
import type { Engine } from "../store/migrations/engine.js";
import type { Store } from "../store/store.js";
import { accountWithKey } from "../test-support/fixtures.js";
import { forEachEngine, type OpenTestStore } from "../test-support/store-engines.js";
import { confirmTotpEnrolment, pendingTotpSecret } from "./mfa-enrolment.js";
import { portalAudit } from "./portal-audit.js";
import { PortalError } from "./portal-errors.js";
import { lookUpSession, startSession } from "./sessions.js";
import { checkPassword, checkSecondFactor, LOCKOUT_AFTER_FAILURES } from "./sign-in.js";
import { totpCodeAt } from "./totp.js";
import { acceptInvitation, inviteUser, openInvitation } from "./users.js";

const PASSWORD = "correct horse battery staple";

/** Invitations, passwords, lock-out, TOTP enrolment and second factor, sessions: the same on both engines. */
function peopleSuite(engine: Engine, open: OpenTestStore) {
  describe(`portal people and sign-in on ${engine}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let deps: ServiceDeps;
    let accountId: string;
    let clock = Date.parse("2026-11-24T09:00:00.000Z");

    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await store.migrate();
      deps = { store, now: () => new Date(clock), secrets: createSecretBox(Buffer.alloc(32, 9)) };
      accountId = (await accountWithKey(deps, { plan: "professional" })).accountId;
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    it("an invitation is accepted once, sets a scrypt password, and is audited in the same transaction", async () => {
      const audit = portalAudit<unknown>(
        {
          requestId: "req-accept",
          now: deps.now,
          actor: { userId: null, accountId },
          operation: "portal.invite.accept",
        },
        () => "user:x",
      );
      const invited = await inviteUser(deps, {
        accountId,
        email: "Owner@Clinic.example",
        role: "owner",
        invitedBy: null,
      });
      expect(invited.email).toBe("owner@clinic.example");
      expect((await openInvitation(deps, invited.token))?.user.role).toBe("owner");
      await expect(acceptInvitation(deps, invited.token, "short")).rejects.toMatchObject({ code: "invalid_input" });
      const user = await acceptInvitation(deps, invited.token, PASSWORD, audit);
      expect(user.active).toBe(true);
      await expect(acceptInvitation(deps, invited.token, PASSWORD)).rejects.toMatchObject({ code: "invite_invalid" });
      const row = await store.db
        .selectFrom("portal_users")
        .selectAll()
        .where("id", "=", user.id)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^scrypt\$15\$8\$1\$/);
      expect(row.password_hash).not.toContain(PASSWORD);
      const stored = await store.db.selectFrom("portal_invites").select("token_hash").execute();
      expect(stored.map((r) => r.token_hash)).not.toContain(invited.token);
      const events = await store.db.selectFrom("audit_events").selectAll().execute();
      expect(events.find((e) => e.request_id === "req-accept")).toMatchObject({
        transport: "portal",
        outcome: "success",
        action: "portal.invite.accept",
      });
      // Accepted: a second invitation for the same address is refused.
      await expect(
        inviteUser(deps, { accountId, email: "owner@clinic.example", role: "viewer", invitedBy: null }),
      ).rejects.toMatchObject({ code: "user_exists" });
    });

    it("an expired invitation cannot be accepted", async () => {
      const invited = await inviteUser(deps, {
        accountId,
        email: "late@clinic.example",
        role: "viewer",
        invitedBy: null,
      });
      clock += 73 * 3_600_000;
      await expect(acceptInvitation(deps, invited.token, PASSWORD)).rejects.toMatchObject({ code: "invite_invalid" });
    });

    it("wrong passwords lock the sign-in; while locked even the right one is refused", async () => {
      const invited = await inviteUser(deps, {
        accountId,
        email: "lock@clinic.example",
        role: "viewer",
        invitedBy: null,
      });
      await acceptInvitation(deps, invited.token, PASSWORD);
      expect(await checkPassword(deps, "LOCK@clinic.example", PASSWORD)).toHaveProperty("user");
      const unknown = await checkPassword(deps, "nobody@clinic.example", PASSWORD);
      expect(unknown).toMatchObject({ refused: { code: "invalid_credentials" }, userId: null });
      for (let i = 0; i < LOCKOUT_AFTER_FAILURES; i++) {
        const r = await checkPassword(deps, "lock@clinic.example", "wrong password guess");
        expect(r).toMatchObject({ refused: { code: "invalid_credentials" } });
      }
      const locked = await checkPassword(deps, "lock@clinic.example", PASSWORD);
      expect(locked).toMatchObject({ refused: { code: "account_locked" } });
      clock += 16 * 60_000;
      expect(await checkPassword(deps, "lock@clinic.example", PASSWORD)).toHaveProperty("user");
    });

    it("TOTP enrolment, then codes: a replayed code and a wrong one are refused, a recovery code works once", async () => {
      const invited = await inviteUser(deps, {
        accountId,
        email: "mfa@clinic.example",
        role: "manager",
        invitedBy: null,
      });
      const user = await acceptInvitation(deps, invited.token, PASSWORD);
      const secret = await pendingTotpSecret(deps, user.id);
      expect(await pendingTotpSecret(deps, user.id)).toBe(secret);
      await expect(confirmTotpEnrolment(deps, user.id, "000000")).rejects.toBeInstanceOf(PortalError);
      const codes = await confirmTotpEnrolment(deps, user.id, totpCodeAt(secret, new Date(clock)));
      expect(codes).toHaveLength(10);
      const row = await store.db
        .selectFrom("portal_users")
        .selectAll()
        .where("id", "=", user.id)
        .executeTakeFirstOrThrow();
      expect(row.totp_secret_enc).not.toContain(secret);
      // The enrolment's own code cannot be replayed as a sign-in code.
      await expect(checkSecondFactor(deps, user.id, totpCodeAt(secret, new Date(clock)))).rejects.toMatchObject({
        code: "invalid_code",
      });
      clock += 30_000;
      const code = totpCodeAt(secret, new Date(clock));
      expect((await checkSecondFactor(deps, user.id, code)).id).toBe(user.id);
      await expect(checkSecondFactor(deps, user.id, code)).rejects.toMatchObject({ code: "invalid_code" });
      expect((await checkSecondFactor(deps, user.id, codes[0]!.toLowerCase())).id).toBe(user.id);
      await expect(checkSecondFactor(deps, user.id, codes[0]!)).rejects.toMatchObject({ code: "invalid_code" });
    });

    it("a session ends after the idle time, and only its token's hash is stored", async () => {
      const invited = await inviteUser(deps, {
        accountId,
        email: "idle@clinic.example",
        role: "viewer",
        invitedBy: null,
      });
      const user = await acceptInvitation(deps, invited.token, PASSWORD);
      const token = await startSession(deps, user.id, "active");
      const rows = await store.db.selectFrom("portal_sessions").select("token_hash").execute();
      expect(rows.map((r) => r.token_hash)).not.toContain(token);
      const idleMs = 5 * 60_000;
      clock += 4 * 60_000;
      expect((await lookUpSession(deps, token, idleMs)).kind).toBe("valid");
      clock += 4 * 60_000; // 4 minutes after the last activity: still valid
      expect((await lookUpSession(deps, token, idleMs)).kind).toBe("valid");
      clock += 6 * 60_000;
      expect((await lookUpSession(deps, token, idleMs)).kind).toBe("idle");
      expect((await lookUpSession(deps, token, idleMs)).kind).toBe("none");
      expect((await lookUpSession(deps, "not a token", idleMs)).kind).toBe("none");
    });
  });
}

forEachEngine(peopleSuite);
