/**
 * Every screen of the portal in French and Arabic, light and dark, walked once per variant:
 * - axe-core on each screen state: a violation of impact serious or critical fails the test, with each
 *   rule, target and help text in the message. No rule is disabled. (The moderate "region" rule does
 *   not fail a run: content outside landmarks is a best practice, not WCAG, and every screen's content
 *   already sits in header/main.)
 * - each state is in the variant's language, direction and theme, and the console stays clean;
 * - the main screens are pictured for people to look at, in test-results/screenshots/
 *   (screen-language-theme-orientation.png), landscape 1024x768 and portrait 800x1280, and neither
 *   orientation scrolls sideways. Never pixels: the layout gate (layout.test.ts) compares those.
 *
 * Dark and light are reached both ways the portal knows: the tablet's preference
 * (prefers-color-scheme, followed until the mechanic chooses) and the header's own toggle, which
 * overrides the preference and is remembered.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeViolations, isSeriousOrWorse, runAxe } from './support/axe';
import { newTabletContext, SCREENSHOT_DIR, screenshot, TABLET_VIEWPORTS } from './support/browser';
import {
  appColorMode,
  chooseAccountMenuItem,
  dismissToasts,
  fillRepair,
  heading1,
  lookUpVehicle,
  newPartner,
  open,
  openTab,
  recordRepairViaApi,
  registerViaApi,
  setAppColorMode,
  signIn,
  switchLanguage,
  visitPublicPages,
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
  // A history with one entry, so the table (not its empty state) is checked and pictured.
  await recordRepairViaApi(e2e.portal.url, partner, {
    kode_id: 'KODE000002',
    repair_type_id: 'general_service',
    odometer: 84_500,
  });
});

const ORIENTATIONS = { landscape: TABLET_VIEWPORTS.landscape, portrait: TABLET_VIEWPORTS.portrait } as const;

type Orientation = keyof typeof ORIENTATIONS;

interface Variant {
  language: Language;
  theme: 'light' | 'dark';
  /** The tablet's preference; when it differs from theme, the header toggle is used to get there. */
  system: 'light' | 'dark';
}

const VARIANTS: Variant[] = [
  { language: 'fr', theme: 'light', system: 'light' },
  { language: 'fr', theme: 'dark', system: 'dark' },
  { language: 'ar', theme: 'light', system: 'dark' },
  { language: 'ar', theme: 'dark', system: 'light' },
];

/** Screen states audited per variant, and pictures taken (8 screens in both orientations). */
const AUDITED_STATES = 14;
const PICTURES = 16;

/**
 * Lets layout, transitions (tabs, dialogs, toasts), fonts and map tiles settle: contrast is measured
 * on the final colours, and a picture shows the screen at rest.
 */
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

class ScreenWalk {
  readonly axeFailures: string[] = [];
  readonly audited: string[] = [];
  readonly pictures: string[] = [];

  constructor(
    private readonly page: Page,
    private readonly variant: Variant,
  ) {}

  /** The variant still holds on this screen: language, direction and theme. */
  private async expectVariant(state: string): Promise<void> {
    const { page, variant } = this;
    expect(await page.getAttribute('html', 'lang'), state).toBe(variant.language);
    expect(await page.getAttribute('html', 'dir'), state).toBe(variant.language === 'ar' ? 'rtl' : 'ltr');
    expect(await appColorMode(page), state).toBe(variant.theme);
  }

  /** axe-core on the state as it is now (landscape, the context's viewport). */
  async audit(state: string): Promise<void> {
    await settle(this.page);
    await this.expectVariant(state);
    const serious = (await runAxe(this.page)).filter(isSeriousOrWorse);
    this.audited.push(state);
    if (serious.length > 0) this.axeFailures.push(`${state}:\n${describeViolations(serious)}`);
  }

  /** The state pictured in both orientations; neither may be wider than the screen. */
  async picture(screen: string, options: { dialog?: boolean } = {}): Promise<void> {
    const { page, variant } = this;
    for (const orientation of Object.keys(ORIENTATIONS) as Orientation[]) {
      await page.setViewportSize(ORIENTATIONS[orientation]);
      // From the top, as the screen opens (a sticky header over a scrolled page would overlap a full-page picture).
      if (!options.dialog) await page.evaluate(() => window.scrollTo(0, 0));
      await settle(page);
      const name = `${screen}-${variant.language}-${variant.theme}-${orientation}`;
      await this.expectVariant(name);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name}: the page is wider than the screen`).toBeLessThanOrEqual(0);
      this.pictures.push(await capture(page, name, options.dialog ?? false));
    }
    await page.setViewportSize(ORIENTATIONS.landscape);
  }

  /** Audited, then pictured. */
  async both(state: string, screen: string, options: { dialog?: boolean } = {}): Promise<void> {
    await this.audit(state);
    await this.picture(screen, options);
  }
}

/** The public screens, signed out, in the variant's language and theme. */
async function walkPublicScreens(walk: ScreenWalk, page: Page, variant: Variant): Promise<void> {
  const url = e2e.portal.url;
  await open(page, url, '/login');
  // Until the mechanic chooses, the page follows the tablet.
  expect(await appColorMode(page)).toBe(variant.system);
  if (variant.language !== 'fr') await switchLanguage(page, variant.language);
  if (variant.theme !== variant.system) await setAppColorMode(page, variant.theme);
  await walk.both('login', 'login');
  await visitPublicPages(page, url, (state) => (state === 'register' ? walk.both(state, state) : walk.audit(state)));
  // Sent empty: every field shows its error, in the error colour.
  await page.locator('form button[type="submit"]').click();
  await page.locator('form [data-part="error-text"]').first().waitFor();
  await walk.audit('register-errors');

  await page.locator('form input[name="location"]').click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('.leaflet-container').waitFor();
  await dialog.getByRole('combobox').pressSequentially('alg');
  await dialog.getByRole('option').first().waitFor();
  await walk.both('location-picker', 'picker', { dialog: true });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
}

/** The partner's area: the dashboard's three tabs and the profile. */
async function walkPartnerScreens(walk: ScreenWalk, page: Page): Promise<void> {
  const url = e2e.portal.url;
  await signIn(page, url, partner);
  await dismissToasts(page);
  await walk.audit('dashboard-add');
  await page.locator('form button[type="submit"]').click();
  await page.locator('form [data-part="error-text"]').first().waitFor();
  await walk.audit('dashboard-add-errors');
  await lookUpVehicle(page, 'KODE000001');
  await dismissToasts(page);
  await walk.audit('dashboard-add-found');
  await fillRepair(page, { typeId: 'oil_change', odometer: '120000' });
  await walk.picture('dashboard-add');

  await openTab(page, 'history');
  await page.locator('table tbody tr').first().waitFor();
  await walk.both('dashboard-history', 'dashboard-history');

  await openTab(page, 'advices');
  await walk.both('dashboard-advices', 'dashboard-advices');

  await chooseAccountMenuItem(page, 'profile');
  await page.waitForURL(`${url}/profile`);
  await page.locator('input[name="full_name"][readonly]').waitFor();
  // The connected devices below the form load after it, with their words and the server's list.
  await page.locator('#connected-devices [data-testid="device"]').first().waitFor();
  await walk.both('profile', 'profile');
  await page.locator('form button[type="button"]').last().click();
  await page.locator('input[name="current_password"]').waitFor();
  await heading1(page).waitFor();
  await walk.both('profile-edit', 'profile-edit');
}

describe('every screen: accessibility (axe-core, serious and critical), layout width and pictures', () => {
  for (const variant of VARIANTS) {
    const how = variant.theme === variant.system ? 'tablet preference' : 'header toggle';
    it(`walks the screens in ${variant.language}, ${variant.theme} (${how})`, async () => {
      const context = await newTabletContext(e2e.browser, { colorScheme: variant.system });
      try {
        const page = await context.newPage();
        const watch = watchConsole(page);
        const walk = new ScreenWalk(page, variant);
        await walkPublicScreens(walk, page, variant);
        await walkPartnerScreens(walk, page);

        expect(walk.audited).toHaveLength(AUDITED_STATES);
        expect(walk.pictures).toHaveLength(PICTURES);
        expect(
          walk.axeFailures,
          `axe violations (${variant.language}, ${variant.theme}):\n${walk.axeFailures.join('\n')}`,
        ).toEqual([]);
        watch.expectClean();
      } finally {
        await context.close();
      }
    });
  }
});
