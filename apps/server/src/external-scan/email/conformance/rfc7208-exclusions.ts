/**
 * Tests of the openspf RFC 7208 suite that do not apply, each with its reason (also listed in CHECKS.md, which a
 * test keeps in step with this table).
 */
export const RFC7208_EXCLUDED: Readonly<Record<string, string>> = {};
