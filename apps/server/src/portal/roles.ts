import { z } from "zod";

/** Who a portal user is within their account (docs/portal.md, "Roles"). */
export const PortalRoleSchema = z.enum(["owner", "manager", "viewer"]);
export type PortalRole = z.infer<typeof PortalRoleSchema>;

/** What a role may do beyond reading its account's practices. */
export type PortalPermission =
  | "invite_users"
  | "manage_scanners"
  | "manage_api_keys"
  | "rotate_webhook_secret"
  /** Change a practice's records through a catalogue operation (policies, the SRA…), which may spend credits. */
  | "change_records";

const GRANTS: Record<PortalRole, readonly PortalPermission[]> = {
  owner: ["invite_users", "manage_scanners", "manage_api_keys", "rotate_webhook_secret", "change_records"],
  manager: ["manage_scanners", "manage_api_keys", "change_records"],
  viewer: [],
};

export const can = (role: PortalRole, permission: PortalPermission): boolean => GRANTS[role].includes(permission);

/**
 * Whether the role must use TOTP (164.312(d)): owners, and anyone who can create credentials (API keys, deploy
 * tokens). Viewers sign in with a password alone unless they enrolled.
 */
export const mfaRequired = (role: PortalRole): boolean => role === "owner" || can(role, "manage_api_keys");

/** Roles a user may give when inviting: never more than their own. */
export function rolesInvitableBy(role: PortalRole): PortalRole[] {
  if (!can(role, "invite_users")) return [];
  return role === "owner" ? ["owner", "manager", "viewer"] : ["manager", "viewer"];
}
