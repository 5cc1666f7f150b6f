/**
 * The environment for an `hcs-server` process a test starts: this process's, without the server's own settings
 * (`DATABASE_URL`, `HCS_*` other than the tests' `HCS_TEST_*`), plus what the test names. A developer who exported
 * `DATABASE_URL` as the README suggests must not have every spawned server open that database instead of the test's
 * own data directory.
 */
export function serverProcessEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (name === "DATABASE_URL" || (name.startsWith("HCS_") && !name.startsWith("HCS_TEST_"))) continue;
    inherited[name] = value;
  }
  return { ...inherited, ...env };
}
