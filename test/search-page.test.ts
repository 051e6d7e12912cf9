/**
 * The search page in a real browser (Debian's chromium driven by playwright-core). Properties checked:
 * 1. The grid fills from GetSearchResultHeaders + GetSearchResults, with the total and timing.
 * 2. Typing shows type-ahead suggestions with the matched characters highlighted.
 * 3. Ticking a filter option narrows the results (disjunctive counts shown beside it).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { contact } from './cases/store.case.ts';
import { startRealService, type RealService } from './support/real-service.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);

if (!available && !process.env.CI) {
  test(`search page SKIPPED: no chromium at ${CHROMIUM} (apt-get install chromium)`, { skip: 'chromium not installed' }, () => {});
} else {
  let svc: RealService;
  let browser: Browser;
  let page: Page;
  before(async () => {
    svc = await startRealService({ seedDemo: 200, contacts: [
      contact('w1', 'Zoë', 'Ångström', { Organization: 'Nordic AB', Country: 'SE', City: 'Stockholm' }),
      contact('w2', 'Zoe', 'Zimmer', { Organization: 'Zed GmbH', Country: 'DE', City: 'Berlin' }),
    ] });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    page = await browser.newPage();
    await page.goto(svc.endpoint.replace(/API\.asmx$/, 'Search.html'));
  });
  after(async () => { await browser?.close(); await svc?.close(); });

  test('1. the grid fills with headers and rows', async () => {
    await page.waitForSelector('#grid tbody tr');
    const headers = await page.locator('#grid thead th').allTextContents();
    assert.deepEqual(headers.slice(0, 3), ['Name', 'Organisation', 'Job title']);
    assert.match(await page.locator('#status').textContent() ?? '', /^202 contacts · showing 50 · [\d.]+ ms$/);
  });

  test('2. type-ahead suggestions with highlights', async () => {
    await page.locator('#q').pressSequentially('zoe ang', { delay: 20 });
    await page.waitForSelector('#suggest li mark');
    const first = page.locator('#suggest li').first();
    assert.match(await first.textContent() ?? '', /^Zoë Ångström/);
    assert.deepEqual(await first.locator('mark').allTextContents(), ['Zoë', 'Ång']);
    await page.waitForFunction(() => document.querySelectorAll('#grid tbody tr').length === 1);
    assert.equal(await page.locator('#grid tbody tr td').first().textContent(), 'Zoë Ångström');
  });

  test('3. a filter option narrows the results', async () => {
    await page.locator('#q').fill('zoe');
    await page.locator('#q').press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('#grid tbody tr').length === 2);
    const de = page.locator('aside input[data-field="Country"]').locator('xpath=..', { hasText: 'DE' });
    assert.match(await de.textContent() ?? '', /DE \(1\)/);
    await de.locator('input').check();
    await page.waitForFunction(() => document.querySelectorAll('#grid tbody tr').length === 1);
    assert.equal(await page.locator('#grid tbody tr td').first().textContent(), 'Zoe Zimmer');
    await page.screenshot({ path: join(tmpdir(), 'contact-search-page.png') });
  });
}
