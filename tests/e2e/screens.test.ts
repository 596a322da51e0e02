/**
 * Screenshots of the main screens for people to look at, in test-results/screenshots/
 * (screen-language-theme-orientation.png): landscape 1024x768 and portrait 800x1280, French and
 * Arabic, light and dark. Only stable things are asserted: each screen loaded in the right
 * language and theme, nothing sticks out sideways, and the console stayed clean. Never pixels.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newTabletContext, SCREENSHOT_DIR, screenshot } from './support/browser';
import {
  appColorMode,
  dismissToasts,
  fillRepair,
  heading1,
  lookUpVehicle,
  newPartner,
  open,
  openTab,
  recordRepairViaApi,
  registerViaApi,
  signIn,
  switchLanguage,
  watchConsole,
  type Language,
  type PartnerAccount,
} from './support/pages';
import { useE2eSetting } from './support/setting';

const e2e = useE2eSetting();
let partner: PartnerAccount;

beforeAll(async () => {
  partner = { ...newPartner('Ecran'), full_name: 'Garage Atlas Bab Ezzouar' };
  await registerViaApi(e2e.portal.url, partner);
  await recordRepairViaApi(e2e.portal.url, partner, {
    kode_id: 'KODE000002',
    repair_type_id: 'general_service',
    odometer: 84_500,
  });
});

const ORIENTATIONS = {
  landscape: { width: 1024, height: 768 },
  portrait: { width: 800, height: 1280 },
} as const;

type Orientation = keyof typeof ORIENTATIONS;

interface Variant {
  language: Language;
  theme: 'light' | 'dark';
}

const VARIANTS: Variant[] = [
  { language: 'fr', theme: 'light' },
  { language: 'fr', theme: 'dark' },
  { language: 'ar', theme: 'light' },
  { language: 'ar', theme: 'dark' },
];

/** Lets layout, transitions, fonts and map tiles settle before a picture. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const tiles = page.locator('.leaflet-container');
  if ((await tiles.count()) > 0) await page.locator('.leaflet-tile-loaded').first().waitFor();
  await page.waitForTimeout(250);
}

/** A dialog covers the viewport only: its picture is the viewport, the others the whole page. */
async function capture(page: Page, name: string, dialog: boolean): Promise<string> {
  if (!dialog) return screenshot(page, name);
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await fs.mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: file });
  return file;
}

/** The screen in both orientations, as it is now; checks that nothing overflows the width. */
async function shoot(
  page: Page,
  variant: Variant,
  screen: string,
  taken: string[],
  options: { dialog?: boolean } = {},
): Promise<void> {
  for (const orientation of Object.keys(ORIENTATIONS) as Orientation[]) {
    await page.setViewportSize(ORIENTATIONS[orientation]);
    // From the top, as the screen opens (a sticky header over a scrolled page would overlap a full-page picture).
    if (!options.dialog) await page.evaluate(() => window.scrollTo(0, 0));
    await settle(page);
    const name = `${screen}-${variant.language}-${variant.theme}-${orientation}`;
    expect(await page.getAttribute('html', 'lang'), name).toBe(variant.language);
    expect(await appColorMode(page), name).toBe(variant.theme);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name}: the page is wider than the screen`).toBeLessThanOrEqual(0);
    taken.push(await capture(page, name, options.dialog ?? false));
  }
  await page.setViewportSize(ORIENTATIONS.landscape);
}

describe('screenshots', () => {
  for (const variant of VARIANTS) {
    it(`captures the screens in ${variant.language}, ${variant.theme}`, async () => {
      const context = await newTabletContext(e2e.browser, { colorScheme: variant.theme });
      const page = await context.newPage();
      const watch = watchConsole(page);
      const taken: string[] = [];
      try {
        await open(page, e2e.portal.url, '/login');
        if (variant.language !== 'fr') await switchLanguage(page, variant.language);
        await shoot(page, variant, 'login', taken);

        await open(page, e2e.portal.url, '/register');
        await page.locator('input[name="phone_number"][data-masked="true"]').waitFor();
        await shoot(page, variant, 'register', taken);

        await page.locator('input[name="location"]').click();
        const dialog = page.getByRole('dialog');
        await dialog.locator('.leaflet-container').waitFor();
        await dialog.getByRole('combobox').pressSequentially('alg');
        await dialog.getByRole('option').first().waitFor();
        await shoot(page, variant, 'picker', taken, { dialog: true });
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });

        await signIn(page, e2e.portal.url, partner);
        await lookUpVehicle(page, 'KODE000001');
        await fillRepair(page, { typeId: 'oil_change', odometer: '120000' });
        await dismissToasts(page);
        await shoot(page, variant, 'dashboard-add', taken);

        await openTab(page, 'history');
        await page.locator('table tbody tr').first().waitFor();
        await shoot(page, variant, 'dashboard-history', taken);

        await openTab(page, 'advices');
        await shoot(page, variant, 'dashboard-advices', taken);

        await open(page, e2e.portal.url, '/profile');
        await page.locator('input[name="full_name"][readonly]').waitFor();
        await shoot(page, variant, 'profile', taken);
        await page.locator('form button[type="button"]').last().click();
        await page.locator('input[name="current_password"]').waitFor();
        await heading1(page).waitFor();
        await shoot(page, variant, 'profile-edit', taken);

        expect(taken).toHaveLength(16);
        watch.expectClean();
      } finally {
        await context.close();
      }
    });
  }
});
