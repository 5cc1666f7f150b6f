/** Request rate limits (docs/api.md#rate-limits). Windows are fixed and aligned to the clock. */
export const RATE_LIMITS = {
  group_a: { per_minute: 100, per_hour: 1000 },
  group_b: { standard: { per_minute: 60 }, bulk: { per_minute: 600 } },
} as const;
