import { z } from "zod";
import { ServiceError } from "../errors.js";
import type { ServiceDeps } from "../services/deps.js";
import { iso } from "../services/deps.js";

const Person = z.strictObject({
  name: z.string().trim().min(1).max(200),
  title: z.string().trim().min(1).max(200).optional(),
  email: z.email().max(254).optional(),
});

/** Facts about the practice that its policies and risk assessment are written from (no PHI). */
export const PracticeProfileSchema = z.strictObject({
  security_officer: Person.optional(),
  privacy_officer: Person.optional(),
  workforce_size: z.int().min(1).max(100_000).optional(),
  state: z
    .string()
    .regex(/^[A-Z]{2}$/, "a two-letter State code")
    .optional(),
  ehr_system: z.string().trim().min(1).max(200).optional(),
  locations: z.int().min(1).max(1000).optional(),
});
export type PracticeProfile = z.infer<typeof PracticeProfileSchema>;

export async function readProfile(deps: ServiceDeps, npi: string): Promise<PracticeProfile> {
  const row = await deps.store.db
    .selectFrom("practice_profiles")
    .select("profile")
    .where("npi", "=", npi)
    .executeTakeFirst();
  return row ? PracticeProfileSchema.parse(JSON.parse(row.profile)) : {};
}

/** Merges `changes` into the stored profile (a field sent replaces the old one). */
export async function updateProfile(
  deps: ServiceDeps,
  npi: string,
  changes: PracticeProfile,
): Promise<PracticeProfile> {
  const merged = PracticeProfileSchema.safeParse({ ...(await readProfile(deps, npi)), ...changes });
  if (!merged.success) throw new ServiceError("invalid_body", `profile: ${merged.error.issues[0]!.message}`);
  const now = iso(deps.now());
  await deps.store.db
    .insertInto("practice_profiles")
    .values({ npi, profile: JSON.stringify(merged.data), updated_at: now })
    .onConflict((oc) => oc.column("npi").doUpdateSet({ profile: JSON.stringify(merged.data), updated_at: now }))
    .execute();
  return merged.data;
}
