// The dashboard with a schedule of every target kind: Debian's chromium (driven by playwright-core) against a
// real `punctual serve` on a temporary SQLite database, with redis, nats and amqp connections configured (they
// connect on first use, and no schedule here fires on its own, so no broker needs to run) and scripts on. A
// handler schedule is put through the library on the same database, as an application embedding it would.
// Signs in, visits every page (schedules, each schedule, each edit form, runs, a run, health) and checks that
// none fails, that a script and a broker schedule round-trip through the edit form unchanged, and that a
// script's compile error lands under its source. Screenshots go to packages/dashboard/screenshots/ (named in
// the README) with PUNCTUAL_UPDATE_SCREENSHOTS=1, else to a temporary folder. Nothing depends on the date: the schedules fire once a year at most and runs are triggered.
// Without /usr/bin/chromium the suite is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createScheduler, ok, sqliteStore } from 'punctual';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD, ensureBuilt, startService, stopService, type Service } from './serve.ts';

const CHROMIUM = '/usr/bin/chromium';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';
/**
 * Screenshots of each page: into the committed folder packages/dashboard/README.md names when
 * PUNCTUAL_UPDATE_SCREENSHOTS=1, else into a temporary folder (so a test run never changes the checkout).
 */
const UPDATE_SHOTS = process.env.PUNCTUAL_UPDATE_SCREENSHOTS === '1';

const SPEC = '0 6 1 1 *';
const SCRIPT_SOURCE = [
  '// Nightly export: logs a line, then fails, so its run shows logs and a stack.',
  'export default async (ctx) => {',
  "  console.log('exporting', JSON.stringify(ctx.payload ?? null));",
  "  throw new Error('export failed');",
  '};',
  '',
].join('\n');

/** One schedule of each kind the service runs (handler is put through the library, below). */
const SCHEDULES: Record<string, Record<string, unknown>> = {
  'hooks.report': { target: { webhook: { url: 'https://example.com/hooks/report', method: 'PUT' } } },
  'streams.orders': { target: { redis: { connection: 'main', stream: 'orders', maxLen: 10000 } } },
  'bus.invoices': { target: { nats: { connection: 'bus', subject: 'billing.invoices.nightly' } } },
  'queues.emails': {
    target: { amqp: { connection: 'rabbit', exchange: 'mail', routingKey: 'emails.daily' } },
  },
  'scripts.export': {
    target: { script: { source: SCRIPT_SOURCE, timeoutMs: 2000 } },
    policies: { retry: { maxAttempts: 1 } },
  },
};
const HANDLER_KEY = 'app.cleanup';

/** Starts `punctual serve` with a connection of each broker kind and scripts on. */
function startKindsService(databasePath: string): Promise<Service> {
  const brokers = {
    main: { kind: 'redis', url: process.env.PUNCTUAL_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' },
    bus: { kind: 'nats', url: process.env.PUNCTUAL_TEST_NATS_URL ?? 'nats://127.0.0.1:4222' },
    rabbit: {
      kind: 'amqp',
      url: process.env.PUNCTUAL_TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
    },
  };
  return startService(databasePath, {
    PUNCTUAL_BROKERS: JSON.stringify(brokers),
    PUNCTUAL_SCRIPTS: 'on',
    PUNCTUAL_SCRIPT_POOL_SIZE: '1',
  });
}

/** Puts a handler schedule for tenant `default` through the library, as an embedding application would. */
async function putHandlerSchedule(databasePath: string): Promise<void> {
  const store = sqliteStore({ path: databasePath });
  const scheduler = createScheduler({ store });
  scheduler.handle('cleanup', async () => ok({}));
  try {
    await scheduler.tenant('default').put({ key: HANDLER_KEY, spec: SPEC, target: { handler: 'cleanup' } });
  } finally {
    await scheduler.close();
  }
}

if (!existsSync(CHROMIUM)) {
  if (REQUIRED) {
    describe('dashboard with every target kind', () => {
      it('needs chromium', () => {
        throw new Error(
          `PUNCTUAL_REQUIRE_SERVICES=1 but ${CHROMIUM} is missing (apt-get install -y chromium)`,
        );
      });
    });
  } else {
    describe.skip(`dashboard with every target kind: ${CHROMIUM} is missing`, () => {
      it('runs in chromium', () => undefined);
    });
  }
} else {
  describe('dashboard with every target kind', () => {
    let work: string;
    let shots: string;
    let service: Service | undefined;
    let context: BrowserContext | undefined;
    let page: Page;
    const pageErrors: string[] = [];
    const consoleErrors: string[] = [];

    const api = async (method: string, path: string, body?: unknown): Promise<Response> =>
      fetch(`${service!.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${service!.apiKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const getSchedule = async (key: string): Promise<Record<string, unknown>> =>
      (await (await api('GET', `/v1/schedules/${encodeURIComponent(key)}`)).json()) as Record<
        string,
        unknown
      >;

    /** A viewport-sized PNG (1366x900), scrolled to `selector` when given, else to the top. */
    const screenshot = async (name: string, selector?: string): Promise<void> => {
      await page.evaluate(() => window.scrollTo(0, 0));
      if (selector) {
        await page.locator(selector).evaluate((el) => el.scrollIntoView({ block: 'center' }));
      }
      await page.screenshot({ path: join(shots, `${name}.png`) });
    };
    /** Goes to `path` in the app and waits for its heading; no page error may have happened. */
    const visit = async (path: string, heading: string | RegExp): Promise<void> => {
      await page.goto(`${service!.url}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      expect(await page.getByTestId('page-error').count(), `${path} fell back to its error message`).toBe(0);
      expect(await page.getByTestId('render-error').count(), `${path} has a part that failed`).toBe(0);
      expect(pageErrors, `page errors on ${path}`).toEqual([]);
    };

    beforeAll(async () => {
      ensureBuilt();
      work = mkdtempSync(join(tmpdir(), 'punctual-dashboard-kinds-'));
      shots = UPDATE_SHOTS
        ? join(DASHBOARD, 'screenshots')
        : mkdtempSync(join(tmpdir(), 'punctual-dashboard-kinds-screenshots-'));
      mkdirSync(shots, { recursive: true });
      if (!UPDATE_SHOTS)
        console.log(`dashboard screenshots: ${shots} (PUNCTUAL_UPDATE_SCREENSHOTS=1 commits them)`);
      const db = join(work, 'p.db');
      service = await startKindsService(db);
      for (const [key, body] of Object.entries(SCHEDULES)) {
        const res = await api('PUT', `/v1/schedules/${key}`, { spec: SPEC, tz: 'Europe/Paris', ...body });
        if (res.status !== 201) throw new Error(`PUT ${key}: ${res.status} ${await res.text()}`);
      }
      await putHandlerSchedule(db);
      const paused = await api('POST', '/v1/schedules/bus.invoices/pause', { note: 'billing freeze' });
      if (paused.status !== 200) throw new Error(`pause: ${paused.status} ${await paused.text()}`);
      const userData = join(work, 'chromium-profile');
      mkdirSync(userData);
      context = await chromium.launchPersistentContext(userData, {
        executablePath: CHROMIUM,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
        viewport: { width: 1366, height: 900 },
        timezoneId: 'America/New_York',
        locale: 'de-DE',
      });
      context.setDefaultTimeout(15_000);
      page = context.pages()[0] ?? (await context.newPage());
      page.on('pageerror', (e) => pageErrors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    }, 90_000);

    afterAll(async () => {
      await context?.close().catch(() => {});
      await stopService(service);
      if (work) rmSync(work, { recursive: true, force: true });
    }, 30_000);

    it('lists a schedule of every kind, each summarised, with no page error', async () => {
      await page.goto(`${service!.url}/`);
      await page.getByLabel('API key').fill(service!.apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('schedules-table').waitFor();
      const row = (key: string) => page.locator(`tr[data-key="${key}"]`);
      await row(HANDLER_KEY).waitFor();
      expect(await page.locator('tr[data-key]').count()).toBe(6);
      const target = async (key: string) =>
        (await row(key).locator('td[data-label="Target"]').textContent())?.trim();
      expect(await target('hooks.report')).toBe('webhook example.com (PUT)');
      expect(await target('streams.orders')).toBe('redis main → stream orders');
      expect(await target('bus.invoices')).toBe('nats bus → subject billing.invoices.nightly');
      expect(await target('queues.emails')).toBe('amqp rabbit → exchange mail, key emails.daily');
      expect(await target('scripts.export')).toMatch(/^script \/\/ Nightly export: .*\(\d+ B\)$/);
      expect(await target(HANDLER_KEY)).toBe('handler cleanup');
      // A paused schedule has no next fire time to show.
      expect((await row('bus.invoices').locator('td.next-cell').textContent())?.trim()).toBe('paused');
      await page.getByTestId('spark-legend').waitFor();
      expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
      expect(pageErrors).toEqual([]);
      await screenshot('01-schedules');
    });

    it("shows each schedule's page", async () => {
      for (const key of [...Object.keys(SCHEDULES), HANDLER_KEY]) {
        await visit(`/schedules/${key}`, key);
        await page.getByRole('heading', { name: 'Definition' }).waitFor();
      }
      await visit('/schedules/scripts.export', 'scripts.export');
      expect(await page.getByTestId('script-source').textContent()).toBe(SCRIPT_SOURCE);
      await screenshot('02-schedule-script', '[data-testid="script-source"]');
      await visit('/schedules/bus.invoices', 'bus.invoices');
      await page.getByTestId('paused-note').waitFor();
      await screenshot('03-schedule-paused-nats');
    });

    it('opens the edit form of every kind with its values', async () => {
      // The heading shows before the schedule has loaded into the form: wait for the value.
      const expectValue = async (label: string | RegExp, value: string) =>
        expect
          .poll(() => page.getByLabel(label, { exact: true }).inputValue(), { timeout: 15_000 })
          .toBe(value);
      await visit('/schedules/hooks.report/edit', 'Edit hooks.report');
      await expectValue('Webhook URL', 'https://example.com/hooks/report');
      await visit('/schedules/streams.orders/edit', 'Edit streams.orders');
      await expectValue('Redis connection', 'main');
      await expectValue('Stream', 'orders');
      await expectValue('Trim to about', '10000');
      await visit('/schedules/bus.invoices/edit', 'Edit bus.invoices');
      await expectValue('Subject', 'billing.invoices.nightly');
      await visit('/schedules/queues.emails/edit', 'Edit queues.emails');
      await expectValue('Exchange', 'mail');
      await expectValue('Routing key', 'emails.daily');
      await screenshot('04-edit-amqp', '#field-target-amqp-routingKey');
      await visit(`/schedules/${HANDLER_KEY}/edit`, `Edit ${HANDLER_KEY}`);
      await expectValue('Handler name', 'cleanup');
      await page.getByText('this service has none').waitFor();
      await visit('/schedules/scripts.export/edit', 'Edit scripts.export');
      await expectValue('Script source', SCRIPT_SOURCE);
      await expectValue('Time limit', '2s');
      // The service runs no handlers: a new schedule is never offered one.
      await visit('/new', 'New schedule');
      const kinds = await page.getByLabel('Kind').locator('option').allTextContents();
      expect(kinds).toEqual(['webhook', 'redis', 'nats', 'amqp', 'script', 'command']);
      expect(await page.getByText('PUT /v1/schedules/%7Bkey%7D').count()).toBe(0);
      await page.getByLabel('Kind').selectOption('script');
      await page.getByLabel('Key', { exact: true }).fill('scripts.new');
      await page.getByLabel('Spec').fill(SPEC);
      await page.getByLabel('Script source').fill('export default (ctx) => {');
      await page.getByRole('button', { name: 'Create schedule' }).click();
      // The compile error appears under the source, and nothing was saved.
      await page.locator('#field-target-script-source-error').waitFor();
      expect(await page.getByLabel('Script source').getAttribute('aria-invalid')).toBe('true');
      expect((await api('GET', '/v1/schedules/scripts.new')).status).toBe(404);
      await screenshot('05-new-script-compile-error', '#field-target-script-source');
      expect(pageErrors).toEqual([]);
    });

    it('saves a script and a broker schedule from the edit form unchanged', async () => {
      for (const key of ['scripts.export', 'queues.emails', 'streams.orders']) {
        const before = await getSchedule(key);
        await visit(`/schedules/${key}/edit`, `Edit ${key}`);
        await page.getByRole('button', { name: 'Save changes' }).click();
        await page.getByRole('heading', { level: 1, name: key }).waitFor();
        await page.getByText('Definition').waitFor();
        const after = await getSchedule(key);
        // An unchanged save is no change: same version, same target, same everything.
        expect(after).toEqual(before);
      }
    });

    it('shows the runs, a failed script run with its error, and health', async () => {
      const triggered = await api('POST', '/v1/schedules/scripts.export/trigger', {});
      expect(triggered.status).toBe(201);
      const run = (await triggered.json()) as { id: string };
      await visit('/runs', 'Runs');
      await page.locator(`a[href="/runs/${run.id}"]`).first().waitFor();
      await screenshot('06-runs');
      await visit(`/runs/${run.id}`, /^Run /);
      await page.locator('h1 .badge[data-state="dead"]').waitFor({ timeout: 30_000 });
      await page.getByText('export failed').first().waitFor();
      await screenshot('07-run-script-failed');
      await visit('/health', 'Health');
      await page.getByTestId('tile-due').waitFor();
      await page.locator('[data-testid="tile-due"] dd', { hasText: /^\d+$/ }).waitFor();
      await screenshot('08-health');
      expect(pageErrors).toEqual([]);
      expect(consoleErrors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    });
  });
}
