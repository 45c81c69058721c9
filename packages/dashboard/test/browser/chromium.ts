// What a browser test needs to drive Debian's chromium (through playwright-core): a suite that runs only when
// /usr/bin/chromium is there (skipped without it, failed under PUNCTUAL_REQUIRE_SERVICES=1), and a headless
// persistent context in a given folder, zone and locale. It never starts the service (serve.ts does).
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';
import { describe, it } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';

/** `describe(name, suite)` when chromium is installed; otherwise a skipped (or, when required, failing) suite. */
export function describeInChromium(name: string, suite: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(name, suite);
  } else if (process.env.PUNCTUAL_REQUIRE_SERVICES === '1') {
    describe(name, () => {
      it('needs chromium', () => {
        throw new Error(
          `PUNCTUAL_REQUIRE_SERVICES=1 but ${CHROMIUM} is missing (apt-get install -y chromium)`,
        );
      });
    });
  } else {
    console.warn(`${name}: skipped, ${CHROMIUM} is missing (apt-get install -y chromium)`);
    describe.skip(`${name}: ${CHROMIUM} is missing`, () => {
      it('runs in chromium', () => undefined);
    });
  }
}

/** A headless chromium with its profile in `userData` (created), a laptop viewport, and a 15 s default timeout. */
export async function launchChromium(
  userData: string,
  opts: { timezoneId: string; locale: string },
): Promise<BrowserContext> {
  mkdirSync(userData, { recursive: true });
  const context = await chromium.launchPersistentContext(userData, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
    viewport: { width: 1366, height: 900 },
    ...opts,
  });
  context.setDefaultTimeout(15_000);
  return context;
}
