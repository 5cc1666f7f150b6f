import { PHYSICAL_TECHNICAL_POLICIES } from "./physical-technical.js";
import type { PolicyDefinition } from "./policy.js";
import { PRIVACY_BREACH_POLICIES } from "./privacy-breach.js";
import { SECURITY_MANAGEMENT_POLICIES } from "./security-management.js";

/**
 * The 24 policies, numbered 1–24 in the order docs/administrative.md#policies lists them. A number is its policy's
 * id for good (`/v1/policies/{n}`, the stored versions' `policy_number`): a policy is never renumbered.
 */
export const POLICIES: readonly PolicyDefinition[] = [
  ...SECURITY_MANAGEMENT_POLICIES,
  ...PHYSICAL_TECHNICAL_POLICIES,
  ...PRIVACY_BREACH_POLICIES,
];

export function policyByNumber(n: number): PolicyDefinition | undefined {
  return POLICIES.find((p) => p.number === n);
}
