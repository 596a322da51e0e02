/**
 * axe-core on every screen of the portal, in French and Arabic, light and dark. A violation of
 * impact serious or critical fails the test, with each rule, target and help text in the message.
 * No rule is disabled. (The moderate "region" rule does not fail a run either: content outside
 * landmarks is a best practice, not WCAG, and every screen's content already sits in header/main.)
 *
 * Dark and light are reached both ways the portal knows: the tablet's preference
 * (prefers-color-scheme, followed until the mechanic chooses) and the header's own toggle, which
 * overrides the preference and is remembered.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { describeViolations, isSeriousOrWorse, runAxe } from './support/axe';
import { newTabletContext } from './support/browser';
import {
  appColorMode,
  chooseAccountMenuItem,
  dismissToasts,
  heading1,
  lookUpVehicle,
  open,
  openTab,
  recordRepairViaApi,
  setAppColorMode,
  signIn,
  switchLanguage,
  watchConsole,
  type ConsoleWatch,
  type Language,
} from './support/pages';
import { DEMO_PARTNER } from './support/server';
import { useE2eSetting } from './support/setting';

const e2e = useE2eSetting();

beforeAll(async () => {
  // A history with one entry, so the table (not its empty state) is checked.
  await recordRepairViaApi(e2e.portal.url, DEMO_PARTNER, {
    kode_id: 'KODE000002',
    repair_type_id: 'oil_change',
    odometer: 84_500,
  });
});

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

/** Lets transitions (tabs, dialogs, toasts) finish so contrast is measured on the final colours. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(250);
}

class Audit {
  readonly failures: string[] = [];
  readonly screens: string[] = [];

  constructor(
    private readonly page: Page,
    private readonly variant: Variant,
  ) {}

  async check(screen: string): Promise<void> {
    const { page, variant } = this;
    await settle(page);
    // The variant still holds on this screen: language, direction and theme.
    expect(await page.getAttribute('html', 'lang')).toBe(variant.language);
    expect(await page.getAttribute('html', 'dir')).toBe(variant.language === 'ar' ? 'rtl' : 'ltr');
    expect(await appColorMode(page)).toBe(variant.theme);
    const serious = (await runAxe(page)).filter(isSeriousOrWorse);
    this.screens.push(screen);
    if (serious.length > 0) this.failures.push(`${screen}:\n${describeViolations(serious)}`);
  }
}

async function auditVariant(variant: Variant): Promise<{ audit: Audit; watch: ConsoleWatch; context: BrowserContext }> {
  const context = await newTabletContext(e2e.browser, { colorScheme: variant.system });
  const page = await context.newPage();
  const watch = watchConsole(page);
  const audit = new Audit(page, variant);

  // Public screens, signed out.
  await open(page, e2e.portal.url, '/login');
  // Until the mechanic chooses, the page follows the tablet.
  expect(await appColorMode(page)).toBe(variant.system);
  if (variant.language !== 'fr') await switchLanguage(page, variant.language);
  if (variant.theme !== variant.system) await setAppColorMode(page, variant.theme);
  await audit.check('login');

  await open(page, e2e.portal.url, '/forgot-password');
  await audit.check('forgot-password');

  // Any token that looks like one shows the form; it is only checked when the form is sent.
  await open(page, e2e.portal.url, '/reset-password?token=v4.local.accessibility-check');
  await audit.check('reset-password');

  await open(page, e2e.portal.url, '/privacy-conditions');
  await page.locator('main h2').first().waitFor();
  await audit.check('privacy-conditions');

  await open(page, e2e.portal.url, '/register');
  await audit.check('register');
  // Sent empty: every field shows its error, in the error colour.
  await page.locator('form button[type="submit"]').click();
  await page.locator('form [data-part="error-text"]').first().waitFor();
  await audit.check('register-errors');

  await page.locator('form input[name="location"]').click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await dialog.locator('.leaflet-container').waitFor();
  await dialog.getByRole('combobox').fill('alg');
  await dialog.getByRole('option').first().waitFor();
  await audit.check('location-picker');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });

  // The partner's area.
  await signIn(page, e2e.portal.url, DEMO_PARTNER);
  await dismissToasts(page);
  await audit.check('dashboard-add');
  await page.locator('form button[type="submit"]').click();
  await page.locator('form [data-part="error-text"]').first().waitFor();
  await audit.check('dashboard-add-errors');
  await lookUpVehicle(page, 'KODE000001');
  await dismissToasts(page);
  await audit.check('dashboard-add-found');

  await openTab(page, 'history');
  await page.locator('table tbody tr').first().waitFor();
  await audit.check('dashboard-history');

  await openTab(page, 'advices');
  await audit.check('dashboard-advices');

  await chooseAccountMenuItem(page, 'profile');
  await page.waitForURL(`${e2e.portal.url}/profile`);
  await heading1(page).waitFor();
  // The connected devices below the form load after it, with their words and the server's list.
  await page.locator('#connected-devices [data-testid="device"]').first().waitFor();
  await audit.check('profile');
  await page.locator('form button[type="button"]').last().click();
  await page.locator('input[name="current_password"]').waitFor();
  await audit.check('profile-edit');

  return { audit, watch, context };
}

describe('accessibility (axe-core, serious and critical)', () => {
  for (const variant of VARIANTS) {
    const how = variant.theme === variant.system ? 'tablet preference' : 'header toggle';
    it(`has no serious violation in ${variant.language}, ${variant.theme} (${how})`, async () => {
      const { audit, watch, context } = await auditVariant(variant);
      try {
        expect(audit.screens).toHaveLength(14);
        expect(
          audit.failures,
          `axe violations (${variant.language}, ${variant.theme}):\n${audit.failures.join('\n')}`,
        ).toEqual([]);
        watch.expectClean();
      } finally {
        await context.close();
      }
    });
  }
});
