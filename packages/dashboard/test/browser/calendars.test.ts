// The Calendars pages end to end: Debian's chromium against a real `punctual serve` on a temporary SQLite
// database. Creates a calendar from its list, adds a range and sees the API's refusal of a reversed one next
// to its field, imports an .ics file through the file picker (what was imported and left out shown), is
// refused the delete while a schedule uses the calendar (the schedule named), and rolls back to an earlier
// version from the History tab. Dates are fixed; no assertion depends on today's date or the machine's zone.
// Without /usr/bin/chromium the suite is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeInChromium, launchChromium } from './chromium.ts';
import { ensureBuilt, startService, stopService, type Service } from './serve.ts';

// Dated all-day events only (no yearly rule): what is imported does not depend on the year the test runs in.
const OFFICE_ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'BEGIN:VEVENT',
  'DTSTART;VALUE=DATE:20271224',
  'DTEND;VALUE=DATE:20271227',
  'SUMMARY:Office closed',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'DTSTART;VALUE=DATE:20280101',
  'SUMMARY:New Year',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'DTSTART:20271222T100000Z',
  'SUMMARY:Meeting',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describeInChromium('dashboard calendars in a browser', () => {
  let work: string;
  let service: Service | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let shots: string;
  const pageErrors: string[] = [];
  const screenshot = async (name: string): Promise<void> => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  };
  const rows = () => page.getByTestId('dates-table').locator('tbody tr');

  beforeAll(async () => {
    ensureBuilt();
    work = mkdtempSync(join(tmpdir(), 'punctual-dashboard-calendars-'));
    shots = mkdtempSync(join(tmpdir(), 'punctual-dashboard-calendars-screenshots-'));
    console.log(`dashboard calendars screenshots: ${shots}`);
    service = await startService(join(work, 'p.db'));
    context = await launchChromium(join(work, 'chromium-profile'), {
      timezoneId: 'Asia/Tokyo',
      locale: 'en-GB',
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => pageErrors.push(e.message));
  }, 90_000);

  afterAll(async () => {
    await context?.close().catch(() => {});
    await stopService(service);
    if (work) rmSync(work, { recursive: true, force: true });
  }, 30_000);

  it('creates a calendar from the list and adds dates, a refused one shown at its field', async () => {
    await page.goto(`${service!.url}/`);
    await page.getByLabel('API key').fill(service!.apiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendars' }).click();
    await page.getByText('No calendars yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('office');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByRole('button', { name: 'Create calendar' }).click();
    await page.waitForURL('**/calendars/office');
    await page.getByRole('heading', { level: 1, name: 'office' }).waitFor();
    await page.getByText('No dates yet.').waitFor();

    await page.getByLabel('From').fill('2027-07-01');
    await page.getByLabel('To (optional)').fill('2027-07-14');
    await page.getByLabel('Label').fill('Summer shutdown');
    await page.getByRole('button', { name: 'Add date' }).click();
    await rows()
      .filter({ hasText: '2027-07-01 – 2027-07-14' })
      .filter({ hasText: 'Summer shutdown' })
      .waitFor();
    await page.getByTestId('calendar-version').filter({ hasText: '2' }).waitFor();

    // A reversed range: the service's CALENDAR_RANGE_REVERSED lands under the To field.
    await page.getByLabel('From').fill('2027-09-10');
    await page.getByLabel('To (optional)').fill('2027-09-01');
    await page.getByRole('button', { name: 'Add date' }).click();
    const error = page.locator('#date-end-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/before start/);
    expect(await page.getByLabel('To (optional)').getAttribute('aria-invalid')).toBe('true');
    expect(await rows().count()).toBe(1);
  });

  it('imports an .ics file through the file picker and shows what was imported', async () => {
    await page.getByLabel('iCalendar file').setInputFiles({
      name: 'office.ics',
      mimeType: 'text/calendar',
      buffer: Buffer.from(OFFICE_ICS),
    });
    await page.getByRole('button', { name: 'Import' }).click();
    const result = page.getByTestId('import-result');
    await result.filter({ hasText: 'Imported 2 dates: now version 3.' }).waitFor();
    expect(await result.textContent()).toContain('Meeting: not an all-day event');
    await rows()
      .filter({ hasText: '2027-12-24 – 2027-12-26' })
      .filter({ hasText: 'Office closed' })
      .waitFor();
    await rows().filter({ hasText: '2028-01-01' }).filter({ hasText: 'New Year' }).waitFor();
    expect(await rows().count()).toBe(2);
    await screenshot('calendar-imported');
  });

  it('names the schedule that uses it when the delete is refused', async () => {
    const res = await fetch(`${service!.url}/v1/schedules/daily.report`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${service!.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        spec: '0 9 * * *',
        tz: 'Europe/Berlin',
        exclude: ['office'],
        target: { webhook: { url: 'https://example.com/hook' } },
      }),
    });
    expect(res.status).toBe(201);
    // The page lists the schedule using it (on its next refresh; a reload shows it at once).
    await page.reload();
    await page.getByTestId('calendar-used-by').getByRole('link', { name: 'daily.report' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete calendar office?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    const refused = page.getByTestId('calendar-in-use');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('office cannot be deleted: a schedule uses it');
    expect(await refused.getByRole('link', { name: 'daily.report' }).getAttribute('href')).toBe(
      '/schedules/daily.report',
    );
    await page.getByRole('heading', { level: 1, name: 'office' }).waitFor();
  });

  it('lists the changes in History and rolls back to an earlier version', async () => {
    await page.getByRole('tab', { name: 'History' }).click();
    const v3 = page.locator('li[data-version="3"]');
    await v3.waitFor();
    expect(await v3.locator('[data-added="2027-12-24"]').textContent()).toContain(
      '2027-12-24 – 2027-12-26 Office closed',
    );
    expect(await v3.locator('[data-removed="2027-07-01"]').textContent()).toContain('Summer shutdown');
    await page
      .locator('li[data-version="2"]')
      .getByRole('button', { name: 'Roll back to this version' })
      .click();
    await page
      .getByRole('dialog', { name: 'Roll office back to version 2?' })
      .getByRole('button', { name: 'Roll back' })
      .click();
    await page.getByText('Rolled back to version 2: now version 4.').waitFor();
    await page.locator('li[data-version="4"][data-change="rolledBack"]').waitFor();
    await screenshot('calendar-history');

    await page.getByRole('tab', { name: 'Dates' }).click();
    await rows().filter({ hasText: '2027-07-01 – 2027-07-14' }).waitFor();
    expect(await rows().count()).toBe(1);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendars' }).click();
    const row = page.getByTestId('calendars-table').locator('tr[data-name="office"]');
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Europe\/Berlin.*1 \(14 days\).*every day.*4/);
    await screenshot('calendars');
    expect(pageErrors).toEqual([]);
  });
});
