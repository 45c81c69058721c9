// The dashboard end to end: Debian's chromium (driven by playwright-core) against a real `punctual serve` on a
// temporary SQLite database. Signs in, creates a schedule through the form while watching the preview follow
// the spec, triggers it and watches its run turn succeeded without a reload, pauses it, and sees an API
// validation error next to its field. Screenshots of each page go to a folder the test prints.
// Without /usr/bin/chromium the suite is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantToWallTime } from '../../src/lib/time.ts';
import { ensureBuilt, startService, stopService, type Service } from './serve.ts';

const CHROMIUM = '/usr/bin/chromium';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';
const KEY = 'e2e.report';

/** A webhook receiver that holds each request until the test releases it, so a run can be seen running. */
class Receiver {
  readonly server: Server;
  readonly received: { method: string; body: string }[] = [];
  #held: ServerResponse[] = [];
  #waiters: (() => void)[] = [];
  hold = true;

  constructor() {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        this.received.push({ method: req.method ?? '', body });
        if (this.hold) this.#held.push(res);
        else this.#answer(res);
        for (const w of this.#waiters.splice(0)) w();
      });
    });
  }

  #answer(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: true }));
  }

  /** Resolves once at least `n` requests arrived. */
  async requests(n: number): Promise<void> {
    while (this.received.length < n) await new Promise<void>((r) => this.#waiters.push(r));
  }

  release(): void {
    this.hold = false;
    for (const res of this.#held.splice(0)) this.#answer(res);
  }

  async listen(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  close(): Promise<void> {
    this.release();
    const closed = new Promise<void>((r) => this.server.close(() => r()));
    this.server.closeAllConnections();
    return closed;
  }
}

if (!existsSync(CHROMIUM)) {
  if (REQUIRED) {
    describe('dashboard in a browser', () => {
      it('needs chromium', () => {
        throw new Error(
          `PUNCTUAL_REQUIRE_SERVICES=1 but ${CHROMIUM} is missing (apt-get install -y chromium)`,
        );
      });
    });
  } else {
    console.warn(`dashboard browser tests skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
    describe.skip(`dashboard in a browser: ${CHROMIUM} is missing`, () => {
      it('runs in chromium', () => undefined);
    });
  }
} else {
  describe('dashboard in a browser', () => {
    let work: string;
    let shots: string;
    let service: Service | undefined;
    let receiver: Receiver;
    let hookUrl: string;
    let context: BrowserContext | undefined;
    let page: Page;
    const pageErrors: string[] = [];
    let shot = 0;

    const screenshot = async (name: string): Promise<void> => {
      shot++;
      // Sticky header and action bar would land mid-page in a full-page shot taken while scrolled.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({
        path: join(shots, `${String(shot).padStart(2, '0')}-${name}.png`),
        fullPage: true,
      });
    };
    const text = async (selector: string): Promise<string> =>
      ((await page.locator(selector).textContent()) ?? '').trim();

    beforeAll(async () => {
      ensureBuilt();
      work = mkdtempSync(join(tmpdir(), 'punctual-dashboard-e2e-'));
      shots = mkdtempSync(join(tmpdir(), 'punctual-dashboard-screenshots-'));
      console.log(`dashboard screenshots: ${shots}`);
      receiver = new Receiver();
      hookUrl = await receiver.listen();
      service = await startService(join(work, 'p.db'), { PUNCTUAL_ALLOW_PRIVATE_TARGETS: '127.0.0.0/8' });
      const index = await fetch(`${service.url}/`);
      if (index.status !== 200 || !(index.headers.get('content-type') ?? '').startsWith('text/html')) {
        throw new Error(
          `${service.url}/ answered ${index.status} ${index.headers.get('content-type')}: the service does not serve the dashboard (is dashboardRoutes registered in app.ts?)`,
        );
      }
      const userData = join(work, 'chromium-profile');
      mkdirSync(userData);
      context = await chromium.launchPersistentContext(userData, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
        viewport: { width: 1366, height: 900 },
        timezoneId: 'America/New_York',
        locale: 'en-US',
      });
      context.setDefaultTimeout(15_000);
      page = context.pages()[0] ?? (await context.newPage());
      page.on('pageerror', (e) => pageErrors.push(e.message));
    }, 90_000);

    afterAll(async () => {
      await context?.close().catch(() => {});
      await stopService(service);
      await receiver?.close();
      if (work) rmSync(work, { recursive: true, force: true });
    }, 30_000);

    it('signs in with an API key and shows the tenant', async () => {
      await page.goto(`${service!.url}/`);
      await page.getByLabel('API key').waitFor();
      await screenshot('sign-in');
      await page.getByLabel('API key').fill('pk_00000000000000000000000000000000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('#api-key-error').filter({ hasText: 'not valid' }).waitFor();
      await page.getByLabel('API key').fill(service!.apiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('tenant-name').filter({ hasText: 'default' }).waitFor();
      await page.getByText('No schedules yet.').waitFor();
      // The key lasts for the browser session: a reload stays signed in. Then the first Tab reaches the skip link.
      await page.reload();
      await page.getByTestId('tenant-name').filter({ hasText: 'default' }).waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      await screenshot('schedules-empty');
    });

    it('creates a schedule through the form, the preview following the spec as it is typed', async () => {
      await page.getByRole('link', { name: 'New schedule' }).click();
      await page.getByRole('heading', { name: 'New schedule' }).waitFor();
      await page.getByLabel('Key', { exact: true }).fill(KEY);
      await page.getByLabel('Time zone').fill('Europe/Paris');
      const spec = page.getByLabel('Spec', { exact: true });
      const description = page.locator('#preview-description');

      await spec.pressSequentially('0 9 * * *');
      await description.filter({ hasText: '09:00' }).waitFor();
      const first = await text('#preview-description');
      expect(first).toMatch(/Europe\/Paris/);
      expect(await page.getByTestId('preview-next').locator('li').count()).toBe(10);
      expect(await page.getByTestId('preview-next').locator('li').first().textContent()).toMatch(
        /09:00:00 \+0[12]:00 Europe\/Paris/,
      );

      await spec.fill('');
      await spec.pressSequentially('30 7 * * 1-5');
      await description.filter({ hasText: '07:30' }).waitFor();
      const second = await text('#preview-description');
      expect(second).not.toBe(first);
      // Each fire time also reads in the viewer's zone (the browser runs in New York).
      expect(await page.getByTestId('preview-next').locator('li').first().textContent()).toMatch(
        /America\/New_York/,
      );

      await page.getByLabel('Webhook URL').fill(hookUrl);
      await page.getByLabel('Payload (JSON)').fill('{"team": "sales"}');
      expect(JSON.parse(await text('[aria-label="Request body as JSON"]'))).toMatchObject({
        spec: '30 7 * * 1-5',
        tz: 'Europe/Paris',
        target: { webhook: { url: hookUrl } },
        payload: { team: 'sales' },
      });
      await screenshot('form-preview');

      await page.getByRole('button', { name: 'Create schedule' }).click();
      await page.waitForURL(`**/schedules/${KEY}`);
      await page.getByTestId('schedule-spec').filter({ hasText: '30 7 * * 1-5' }).waitFor();
      await page.locator('#preview-description').filter({ hasText: '07:30' }).waitFor();
      await screenshot('schedule-detail');
    });

    it('triggers it and watches the run appear and turn succeeded without a reload', async () => {
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      await page.getByRole('button', { name: 'Trigger now' }).click();
      await page.getByTestId('action-status').filter({ hasText: 'Triggered' }).waitFor();
      // The receiver holds the webhook request, so the run is seen running first.
      await receiver.requests(1);
      const row = page.getByTestId('runs-table').locator('tbody tr').filter({ hasText: 'manual' });
      await row.and(page.locator('[data-run-state="running"]')).waitFor();
      await screenshot('run-running');
      receiver.release();
      await row.and(page.locator('[data-run-state="succeeded"]')).waitFor();
      expect(
        await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
      ).toBe(true);
      expect(receiver.received[0]?.body).toContain('sales');
      await page.getByTestId('latest-run').filter({ hasText: 'succeeded' }).waitFor();
      await page.locator('.chart canvas').first().waitFor();
      await screenshot('run-succeeded');

      await row.getByRole('link', { name: /^Run / }).click();
      await page.getByRole('heading', { name: 'Attempts' }).waitFor();
      await page.getByRole('heading', { level: 1 }).locator('[data-state="succeeded"]').waitFor();
      await page.locator('table.cards tbody tr').first().waitFor();
      await screenshot('run-detail');
      await page.getByRole('main').getByRole('link', { name: KEY }).first().click();
      await page.waitForURL(`**/schedules/${KEY}`);
    });

    it('backfills a past range', async () => {
      await page.getByRole('button', { name: 'Backfill…' }).click();
      const dialog = page.getByRole('dialog', { name: `Backfill ${KEY}` });
      // Seven calendar days, midnight to midnight in Paris, hold exactly five weekday 07:30s, even across a
      // clock change (7 x 24 h would not: it can reach a 07:30 on either side). The range ends at the
      // start of the Paris day 25 h ago, so none of them falls in the runs page's 24 h timeline, whatever
      // the day and hour the suite runs at.
      const day = instantToWallTime(Date.now() - 25 * 3_600_000, 'Europe/Paris').slice(0, 10);
      const [y, m, d] = day.split('-').map(Number) as [number, number, number];
      const weekBefore = new Date(Date.UTC(y, m - 1, d - 7)).toISOString().slice(0, 10);
      await dialog.getByLabel('From (Europe/Paris)').fill(`${weekBefore}T00:00`);
      await dialog.getByLabel('To (Europe/Paris)').fill(`${day}T00:00`);
      await dialog.getByRole('button', { name: 'Backfill', exact: true }).click();
      await page.getByTestId('action-status').filter({ hasText: 'Backfill created 5 runs.' }).waitFor();
      const backfilled = page.getByTestId('runs-table').locator('tbody tr').filter({ hasText: 'backfill' });
      await expect
        .poll(() => backfilled.and(page.locator('[data-run-state="succeeded"]')).count(), { timeout: 15_000 })
        .toBe(5);
      await screenshot('backfilled');
    });

    it('pauses it with a note', async () => {
      await page.getByRole('button', { name: 'Pause…' }).click();
      const dialog = page.getByRole('dialog', { name: `Pause ${KEY}` });
      await dialog.getByLabel('Note (why it is paused)').fill('quarter-end freeze');
      await dialog.getByLabel('Cancel them now').check();
      await dialog.getByRole('button', { name: 'Pause', exact: true }).click();
      await page.getByTestId('paused-note').filter({ hasText: 'quarter-end freeze' }).waitFor();
      await page.getByRole('heading', { level: 1 }).locator('[data-state="paused"]').waitFor();
      await page.getByRole('button', { name: 'Resume' }).waitFor();
      await screenshot('paused');
    });

    it('shows an API validation error next to the field it concerns', async () => {
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await page.getByRole('heading', { name: `Edit ${KEY}` }).waitFor();
      const attempts = page.getByLabel('Attempts per run');
      await expect.poll(() => attempts.inputValue()).toBe('3');
      await attempts.fill('0');
      const answer = page.waitForResponse(
        (r) => r.request().method() === 'PUT' && r.url().includes(`/v1/schedules/${KEY}`),
      );
      await page.getByRole('button', { name: 'Save changes' }).click();
      const res = await answer;
      expect(res.status()).toBe(400);
      expect(((await res.json()) as { error: { details: { field: string } } }).error.details.field).toBe(
        'policies.retry.maxAttempts',
      );
      const message = page.locator('#field-policies-retry-maxAttempts-error');
      await message.waitFor();
      expect(await message.textContent()).toMatch(/between 1 and 1000/);
      expect(await attempts.getAttribute('aria-invalid')).toBe('true');
      expect(await attempts.getAttribute('aria-describedby')).toContain(
        'field-policies-retry-maxAttempts-error',
      );
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('field-policies-retry-maxAttempts');
      await screenshot('validation-error');
    });

    it('shows the schedules, runs and health pages, on a laptop and on a phone', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedules' }).click();
      const row = page.getByTestId('schedules-table').locator(`tr[data-key="${KEY}"]`);
      await row.waitFor();
      await row.locator('[data-state="paused"]').waitFor();
      await row.locator('[data-state="succeeded"]').waitFor();
      expect(await row.textContent()).toMatch(/Europe\/Paris/);
      await screenshot('schedules');

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
      await page.getByTestId('runs-table').locator('[data-run-state="succeeded"]').first().waitFor();
      await page.locator('.timeline figcaption').filter({ hasText: '1 succeeded' }).waitFor();
      await screenshot('runs');

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Health' }).click();
      await page.getByTestId('tile-due').locator('dd').filter({ hasText: /^\d+$/ }).waitFor();
      await page.locator('.chart canvas').nth(3).waitFor();
      await screenshot('health');

      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Schedules' }).click();
      await page.getByTestId('schedules-table').locator(`tr[data-key="${KEY}"]`).waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot('schedules-phone');
      await page.getByTestId('schedules-table').getByRole('link', { name: KEY }).click();
      await page.getByTestId('schedule-spec').waitFor();
      await screenshot('schedule-detail-phone');

      await page.setViewportSize({ width: 1366, height: 900 });
    }, 60_000);

    it('deletes it after a confirmation', async () => {
      await page.getByRole('button', { name: 'Delete…' }).click();
      const dialog = page.getByRole('dialog', { name: `Delete ${KEY}?` });
      // The safe choice has the focus.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep it');
      await dialog.getByRole('button', { name: 'Delete schedule' }).click();
      await page.waitForURL('**/schedules');
      await page.getByText('No schedules yet.').waitFor();
      expect(pageErrors).toEqual([]);
    });
  });
}
