/**
 * `npm run screenshots`: the search page at desktop and phone widths, light and dark, written to
 * docs/screenshots/ (shown in the README). Runs the real service over the Demo data (10,000
 * generated contacts, deterministic) and Debian's chromium; not part of the tests.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/support/browser.ts';
import { startRealService } from '../test/support/real-service.ts';

const out = new URL('../docs/screenshots/', import.meta.url);
mkdirSync(out, { recursive: true });
const svc = await startRealService({ seedDemo: 10_000 });
const browser = await launchChromium();
const url = svc.endpoint.replace(/API\.asmx$/, 'Search.html');
const idle = (page: Page) =>
  page.waitForFunction(
    () =>
      document.querySelector('#grid')?.getAttribute('aria-busy') === 'false' &&
      document.querySelectorAll('#facets > *').length > 0,
  );

async function shot(
  name: string,
  width: number,
  height: number,
  colorScheme: 'light' | 'dark',
  act: (page: Page) => Promise<void>,
) {
  const context = await browser.newContext({
    viewport: { width, height },
    colorScheme,
    deviceScaleFactor: 1,
    isMobile: width < 600,
    hasTouch: width < 600,
  });
  const page = await context.newPage();
  await act(page);
  await page.waitForTimeout(300); // transitions settle
  await page.screenshot({ path: new URL(`${name}.png`, out).pathname });
  console.log(`docs/screenshots/${name}.png`);
  await context.close();
}

try {
  await shot('desktop-results', 1200, 760, 'light', async (page) => {
    await page.goto(`${url}?q=anna&f=Country%3ADE&sort=LastName`);
    await idle(page);
  });
  await shot('desktop-suggestions', 1200, 760, 'light', async (page) => {
    await page.goto(url);
    await idle(page);
    await page.locator('#q').pressSequentially('bad m', { delay: 60 });
    await page.waitForFunction(
      () =>
        document.querySelector('#suggest')?.getAttribute('data-text') === 'bad m' &&
        document.querySelector('#suggest .why-value mark'),
    );
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
  });
  await shot('desktop-contact-dark', 1200, 760, 'dark', async (page) => {
    await page.goto(`${url}?q=anna`);
    await idle(page);
    await page.locator('#grid a.open').first().click();
    await page.locator('#contact-fields dd').first().waitFor();
  });
  await shot('phone-results', 390, 780, 'light', async (page) => {
    await page.goto(`${url}?q=anna&f=Country%3ADE`);
    await idle(page);
  });
  await shot('phone-filters-dark', 390, 780, 'dark', async (page) => {
    await page.goto(`${url}?q=anna&f=Country%3ADE`);
    await idle(page);
    await page.locator('#filters-open').click();
  });
  await shot('phone-contact', 360, 740, 'light', async (page) => {
    await page.goto(`${url}?q=anna`);
    await idle(page);
    await page.locator('#grid a.open').first().click();
    await page.locator('#contact-fields dd').first().waitFor();
  });
} finally {
  await browser.close();
  await svc.close();
}
