import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";

/** Debian's Chromium (apt-get install chromium; .ci/run installs it). No browser is ever downloaded. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Whether browser tests can run: Chromium installed. Under CI it must be (the test fails instead of skipping);
 * elsewhere the tests skip and say why.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package`);
  console.warn(`browser tests skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Root in containers has no user namespace sandbox; the pages are our own, served on loopback.
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
}

/** Where screenshots go: apps/server/.test-artifacts/<name> (gitignored), made on first use. */
export function artifactDir(name: string): string {
  const dir = join(import.meta.dirname, "..", "..", ".test-artifacts", name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: number;
}

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, which the page's CSP does not govern, so the
 * policy under test stays as served) and returns the serious and critical violations.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    const result = await axe.run();
    return result.violations as { id: string; impact: string | null; help: string; nodes: unknown[] }[];
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length }));
}
