/**
 * The prerendered first screens (docs/ARCHITECTURE.md#prerendered-first-screens): the HTML of the
 * public pages and of the dashboard's frame already shows the page in the language, direction and
 * colours the tablet chose, with no script at all and nothing of a partner; the app then hydrates it
 * where it stands (the same elements, no console error, no layout shift); what is typed before the
 * app's code has arrived is kept; offline, the service worker sends the same.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newTabletContext, screenshot } from './support/browser';
import { registerPartner, waitForPrecache, waitForServiceWorker, type Account } from './support/offline';
import {
  appColorMode,
  heading1,
  setAppColorMode,
  signIn,
  switchLanguage,
  watchConsole,
  type Language,
} from './support/pages';
import { useE2eSetting } from './support/setting';
import { scaled } from '../support/host-speed';

const e2e = useE2eSetting();

const DASHBOARD_TITLES: Record<Language, string> = {
  fr: 'Tableau de bord – Partenaire Garage',
  ar: 'لوحة التحكم – الورشة الشريكة',
  en: 'Dashboard – Partner Garage',
};

const TITLES: Record<string, Record<Language, string>> = {
  '/login': {
    fr: 'Connexion à l’espace partenaire',
    ar: 'تسجيل الدخول إلى فضاء الشركاء',
    en: 'Log in to the partner area',
  },
  '/register': { fr: 'Créer un compte partenaire', ar: 'إنشاء حساب شريك', en: 'Create a partner account' },
  '/forgot-password': { fr: 'Mot de passe oublié', ar: 'نسيت كلمة المرور', en: 'Forgotten password' },
};

interface Choice {
  language: Language;
  mode: 'light' | 'dark';
}

const CHOICES: readonly Choice[] = [
  { language: 'fr', mode: 'light' },
  { language: 'ar', mode: 'light' },
  { language: 'fr', mode: 'dark' },
  { language: 'ar', mode: 'dark' },
];

const contexts: BrowserContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function tablet(options: Parameters<typeof newTabletContext>[1] = {}): Promise<BrowserContext> {
  const context = await newTabletContext(e2e.browser, options);
  contexts.push(context);
  return context;
}

/** A tablet where the mechanic chose this language and mode on /login, as anyone would: in the header. */
async function tabletThatChose({ language, mode }: Choice, options: Parameters<typeof tablet>[0] = {}) {
  const context = await tablet(options);
  const page = await context.newPage();
  await page.goto(`${e2e.portal.url}/login`);
  if (language !== 'fr') await switchLanguage(page, language);
  await setAppColorMode(page, mode);
  return { context, page };
}

/** What the page shows that tells its language, direction and colours apart. */
async function looks(page: Page) {
  return page.evaluate(() => {
    const html = document.documentElement;
    const logo = document.querySelector('header a')!.getBoundingClientRect();
    return {
      lang: html.lang,
      dir: html.dir,
      dark: html.classList.contains('dark'),
      background: getComputedStyle(document.body).backgroundColor,
      // Right to left puts the logo on the right.
      logoOnTheRight: logo.left > window.innerWidth / 2,
    };
  });
}

const DARK_BACKGROUND = 'rgb(17, 17, 17)';

/** One layout shift the page reported: its score, and where each moved element then stood. */
interface ShiftSeen {
  value: number;
  sources: { node: Node | null; box: string }[];
}

interface HydrationProbe {
  shifts: ShiftSeen[];
  servedHeading: Element | null;
  /** Every element of #root with its box, as the HTML laid it out before any script ran. */
  parsedBoxes: [Element, string][];
  /** The same for its texts, which a layout shift may also name as moved. */
  parsedTextBoxes: [Text, string][];
}

/**
 * Before the page loads: records its layout shifts, keeps the heading the HTML brought, and notes where
 * each element of the page stood once the HTML was parsed, before any script ran (the document turns
 * `interactive` before its deferred module scripts run).
 */
async function watchHydration(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const probe = window as unknown as HydrationProbe;
    probe.shifts = [];
    probe.parsedBoxes = [];
    probe.parsedTextBoxes = [];
    type Rect = { x: number; y: number; width: number; height: number };
    type LayoutShift = { value: number; sources: { node: Node | null; currentRect: Rect }[] };
    const boxOf = ({ x, y, width, height }: Rect) => [x, y, width, height].map(Math.round).join(',');
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as LayoutShift[]) {
        probe.shifts.push({
          value: entry.value,
          sources: entry.sources.map(({ node, currentRect }) => ({ node, box: boxOf(currentRect) })),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      probe.servedHeading = document.querySelector('h1');
      probe.parsedBoxes = Array.from(document.querySelectorAll('#root *'), (element): [Element, string] => [
        element,
        boxOf(element.getBoundingClientRect()),
      ]);
      probe.parsedTextBoxes = [];
      const texts = document.createTreeWalker(document.getElementById('root')!, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let text = texts.nextNode(); text; text = texts.nextNode()) {
        range.selectNodeContents(text);
        probe.parsedTextBoxes.push([text as Text, boxOf(range.getBoundingClientRect())]);
      }
    });
  });
}

/**
 * The variant served, whether the heading is still the HTML's own element, and which of the HTML's
 * elements React replaced or moved while hydrating (none, for a page hydrated as it stands).
 *
 * The elements' boxes are compared rather than the layout shifts the page reported: on a loaded
 * machine Chromium now and then paints a frame while the HTML is still being parsed (a header with
 * its logo but not yet its title), and the layout shift it then reports is the parser's, not
 * hydration's (docs/decisions/0011-prerendered-first-screens.md).
 */
function hydrationState(page: Page) {
  return page.evaluate(() => {
    const probe = window as unknown as HydrationProbe;
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${(element.textContent ?? '').slice(0, 30)}"`;
    const changed = probe.parsedBoxes.flatMap(([element, parsedBox]) => {
      if (!element.isConnected) return [`${describe(element)} replaced`];
      const { x, y, width, height } = element.getBoundingClientRect();
      const box = [x, y, width, height].map(Math.round).join(',');
      return box === parsedBox ? [] : [`${describe(element)} moved from ${parsedBox} to ${box}`];
    });
    return {
      shell: document.getElementById('root')!.dataset.shell,
      sameHeading: probe.servedHeading !== null && probe.servedHeading === document.querySelector('h1'),
      parsed: probe.parsedBoxes.length > 0,
      changed,
    };
  });
}

/**
 * For the dashboard, whose partner data comes in after hydration into places kept for it: the variant
 * served, the heading kept, and every layout shift so far that moved an element anywhere but where the
 * parsed HTML put it (hydration's or the data's), with what it moved.
 *
 * A shift that only brings elements to their places in the parsed HTML is the parser's: on a loaded
 * machine Chromium now and then paints a frame of a half-parsed header, and the next frame reports
 * the header's buttons moving to where the whole HTML puts them (docs/decisions/0011-prerendered-first-screens.md).
 */
async function hydratedWithoutShift(page: Page) {
  const { shell, sameHeading } = await hydrationState(page);
  const shifts = await page.evaluate(() => {
    const probe = window as unknown as HydrationProbe;
    const parsed = new Map<Node, string>([...probe.parsedBoxes, ...probe.parsedTextBoxes]);
    const describe = (node: Node | null) =>
      node instanceof Element
        ? `${node.tagName.toLowerCase()} "${(node.textContent ?? '').slice(0, 30)}"`
        : String(node?.nodeName ?? 'a removed node');
    return probe.shifts
      .filter(({ sources }) => sources.some(({ node, box }) => node === null || parsed.get(node) !== box))
      .map(
        ({ value, sources }) =>
          `${value.toFixed(4)}: ${sources.map(({ node, box }) => `${describe(node)} to ${box}`).join('; ')}`,
      );
  });
  return { shell, sameHeading, shifts };
}

/** Whether React has taken the element as its own (hydrated it). */
async function hydrated(page: Page, selector: string): Promise<boolean> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactFiber')));
}

describe('the prerendered first screen', () => {
  it.each(CHOICES)('is painted without script in $language, $mode', async (choice) => {
    const chosen = await tabletThatChose(choice);
    const cookies = await chosen.context.cookies();
    const noScript = await tablet({ javaScript: false });
    await noScript.addCookies(cookies);
    const page = await noScript.newPage();
    for (const [pathname, titles] of Object.entries({ ...TITLES, '/': DASHBOARD_TITLES })) {
      await page.goto(`${e2e.portal.url}${pathname}`);
      await expect.poll(() => heading1(page).textContent()).toBe(titles[choice.language]);
      const shown = await looks(page);
      expect(shown).toMatchObject({
        lang: choice.language,
        dir: choice.language === 'ar' ? 'rtl' : 'ltr',
        dark: choice.mode === 'dark',
        logoOnTheRight: choice.language === 'ar',
      });
      // The critical CSS came with the HTML: the page's colours are there without any script.
      if (choice.mode === 'dark') expect(shown.background).toBe(DARK_BACKGROUND);
      else expect(shown.background).not.toBe(DARK_BACKGROUND);
    }
    await expect.poll(() => page.getByRole('textbox').count()).toBeGreaterThan(0);
    await screenshot(page, `prerendered-no-script-${choice.language}-${choice.mode}`);
  });

  it.each(CHOICES)(
    'is hydrated as it stands in $language, $mode: same elements, no error, no shift',
    async (choice) => {
      const { context } = await tabletThatChose(choice, { serviceWorkers: 'block' });
      const page = await context.newPage();
      const console = watchConsole(page);
      await watchHydration(page);
      for (const [pathname, titles] of Object.entries(TITLES)) {
        await page.goto(`${e2e.portal.url}${pathname}`);
        // Hydrated: React has taken the served submit button as its own.
        const submit = page.locator('form button[type="submit"]');
        await expect.poll(() => hydrated(page, 'form button[type="submit"]')).toBe(true);
        expect(await hydrationState(page)).toEqual({
          shell: `${choice.language}-${choice.mode}`,
          sameHeading: true,
          parsed: true,
          changed: [],
        });
        expect(await heading1(page).textContent()).toBe(titles[choice.language]);
        expect(await appColorMode(page)).toBe(choice.mode);
        // And it answers: a submit with empty fields shows the field messages.
        await submit.click();
        await expect.poll(() => page.locator('[data-part="error-text"]').count()).toBeGreaterThan(0);
      }
      console.expectClean();
    },
  );

  it('carries the design system’s global styles in its HTML, which the app does not insert again', async () => {
    const context = await tablet({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const console = watchConsole(page);
    // A prerendered page, and one that is not (the plain shell: a reset link's token is unknown to the build).
    for (const pathname of ['/login', '/reset-password?token=v4.local.unknown']) {
      await page.goto(`${e2e.portal.url}${pathname}`);
      await expect.poll(() => hydrated(page, 'form button[type="submit"]')).toBe(true);
      const styles = await page.evaluate(() => ({
        brand: getComputedStyle(document.documentElement).getPropertyValue('--chakra-colors-brand-500'),
        // Every style element holding the token variables: the HTML's own, and any the app added.
        holders: Array.from(document.querySelectorAll('style'))
          .filter((style) => style.textContent?.includes('--chakra-colors-brand-500:'))
          .map((style) => style.id || style.dataset.emotion || 'unnamed'),
      }));
      expect(styles).toEqual({ brand: '#1c4f8c', holders: ['design-system-global-styles'] });
    }
    console.expectClean();
  });

  it('is taken away when in another language than the tablet’s, which the page then shows and the next start gets', async () => {
    // A tablet updated from a version that kept the language only in its own storage: no cookie yet.
    const context = await tablet({ serviceWorkers: 'block' });
    await context.addInitScript(() => localStorage.setItem('partner-language', 'ar'));
    const page = await context.newPage();
    const console = watchConsole(page);
    await page.goto(`${e2e.portal.url}/login`);
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    // Once the app's code runs, the French page is gone: nobody reads it or types into it.
    expect(await page.evaluate(() => document.querySelector('h1')?.textContent ?? null)).not.toBe(TITLES['/login']!.fr);
    await expect.poll(() => heading1(page).textContent()).toBe(TITLES['/login']!.ar);
    expect(await page.evaluate(() => document.getElementById('root')!.dataset.shell)).toBeUndefined();
    await page.reload();
    expect(await page.evaluate(() => document.getElementById('root')!.dataset.shell)).toBe('ar-light');
    console.expectClean();
  });

  it('is sent by the service worker offline, in the language and colours chosen', async () => {
    const { context, page } = await tabletThatChose({ language: 'ar', mode: 'dark' });
    await waitForServiceWorker(page);
    await waitForPrecache(page);
    await context.setOffline(true);
    const console = watchConsole(page);
    for (const [pathname, titles] of Object.entries(TITLES)) {
      await page.goto(`${e2e.portal.url}${pathname}`);
      await expect.poll(() => heading1(page).textContent()).toBe(titles.ar);
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      expect(await page.evaluate(() => document.getElementById('root')!.dataset.shell)).toBe('ar-dark');
      expect(await looks(page)).toMatchObject({ lang: 'ar', dir: 'rtl', dark: true, background: DARK_BACKGROUND });
    }
    console.expectClean([/net::ERR_INTERNET_DISCONNECTED/]);
  });
});

/** The partner's display name, as registerPartner makes it: it must never be in the HTML. */
const PARTNER_NAME = /Garage prerender \d+/;

/** Holds the page's code of one screen (its chunk) until `release` is called. */
async function holdScreenCode(page: Page, chunk: RegExp): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(chunk, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

describe('the dashboard’s prerendered frame', () => {
  let account: Account;
  beforeAll(async () => {
    account = await registerPartner(e2e.portal.url, 'prerender');
  });

  it('holds nothing of the partner and is hydrated as it stands, the partner’s data coming in without a shift', async () => {
    const context = await tablet({ serviceWorkers: 'block' });
    const page = await context.newPage();
    await signIn(page, e2e.portal.url, account);
    await switchLanguage(page, 'ar');
    await setAppColorMode(page, 'dark');

    const served = await (await context.request.get(`${e2e.portal.url}/`)).text();
    expect(served).toContain(DASHBOARD_TITLES.ar);
    expect(served).toContain('data-shell="ar-dark"');
    expect(served).not.toMatch(PARTNER_NAME);
    expect(served).not.toContain(account.email);

    const console = watchConsole(page);
    await watchHydration(page);
    await page.goto(`${e2e.portal.url}/`);
    await expect.poll(() => hydrated(page, 'input[name="kode_id"]')).toBe(true);
    // The partner's name comes into the header once the session is known, in the place kept for it.
    await expect.poll(() => page.locator('header').textContent()).toMatch(PARTNER_NAME);
    await page.waitForTimeout(500);
    expect(await hydratedWithoutShift(page)).toEqual({ shell: 'ar-dark', sameHeading: true, shifts: [] });
    expect(await looks(page)).toMatchObject({ lang: 'ar', dir: 'rtl', dark: true, background: DARK_BACKGROUND });
    console.expectClean();
    await screenshot(page, 'prerendered-dashboard-ar-dark');
  });

  it('is sent by the service worker offline in the language and colours chosen, and hydrated as it stands', async () => {
    const { context, page } = await tabletThatChose({ language: 'ar', mode: 'dark' });
    await signIn(page, e2e.portal.url, account);
    await waitForServiceWorker(page);
    await waitForPrecache(page);
    await context.setOffline(true);
    const console = watchConsole(page);
    await watchHydration(page);
    const answer = await page.goto(`${e2e.portal.url}/`);
    expect(answer?.fromServiceWorker()).toBe(true);
    const served = (await answer?.text()) ?? '';
    expect(served).toContain('data-shell="ar-dark"');
    expect(served).not.toMatch(PARTNER_NAME);
    await expect.poll(() => hydrated(page, 'input[name="kode_id"]')).toBe(true);
    await expect.poll(() => page.locator('header').textContent()).toMatch(PARTNER_NAME);
    expect(await hydratedWithoutShift(page)).toEqual({ shell: 'ar-dark', sameHeading: true, shifts: [] });
    expect(await looks(page)).toMatchObject({ lang: 'ar', dir: 'rtl', dark: true, background: DARK_BACKGROUND });
    console.expectClean([/net::ERR_INTERNET_DISCONNECTED/]);
  });

  it('makes the entry form live first; the header, title, statistics and tabs follow, a tap on them meanwhile answered', async () => {
    const context = await tablet({ serviceWorkers: 'block' });
    const page = await context.newPage();
    await signIn(page, e2e.portal.url, account);
    const console = watchConsole(page);
    // The moment the form can be typed in (the mark the bench times): which parts are React's by then,
    // and a tap on the header's language button, which is not yet.
    await page.addInitScript(() => {
      const live = (selector: string) => {
        const element = document.querySelector(selector);
        return element !== null && Object.keys(element).some((key) => key.startsWith('__reactFiber'));
      };
      const mark = performance.mark.bind(performance);
      performance.mark = (name: string, options?: PerformanceMarkOptions) => {
        if (name === 'dashboard-interactive') {
          Object.assign(window, {
            liveAtInteractive: {
              form: live('input[name="kode_id"]'),
              header: live('header button[aria-haspopup="menu"]'),
              title: live('h1'),
              tabs: live('[role="tab"]'),
            },
          });
          // A tap right after, in a task of its own as a mechanic's would be, while the header is still HTML.
          setTimeout(() => {
            Object.assign(window, { headerLiveAtTap: live('header button[aria-haspopup="menu"]') });
            document.querySelector<HTMLButtonElement>('header button[aria-haspopup="menu"]')!.click();
          });
        }
        return mark(name, options);
      };
    });
    await page.goto(`${e2e.portal.url}/`);
    await expect
      .poll(() => page.evaluate(() => (window as { liveAtInteractive?: object }).liveAtInteractive))
      .toEqual({
        form: true,
        header: false,
        title: false,
        tabs: false,
      });
    // The rest is hydrated right after, and the tap made before then opened the language menu.
    expect(await page.evaluate(() => (window as { headerLiveAtTap?: boolean }).headerLiveAtTap)).toBe(false);
    await expect.poll(() => hydrated(page, '[role="tab"]')).toBe(true);
    await expect.poll(() => hydrated(page, 'h1')).toBe(true);
    await expect.poll(() => page.getByRole('menuitemradio').count()).toBe(3);
    console.expectClean();
  });

  it('keeps what was typed and submitted before the screen’s code arrived: sign-in, then a KODE ID', async () => {
    const context = await tablet({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const console = watchConsole(page);

    const releaseLogin = await holdScreenCode(page, /\/assets\/LoginPage-[\w-]+\.js$/);
    await page.goto(`${e2e.portal.url}/login`);
    await page.locator('input[name="email"]').fill(account.email);
    await page.locator('input[name="password"]').fill(account.password);
    await page.locator('form button[type="submit"]').click();
    expect(await hydrated(page, 'input[name="email"]')).toBe(false);
    releaseLogin();
    await page.waitForURL(`${e2e.portal.url}/`);

    const releaseDashboard = await holdScreenCode(page, /\/assets\/DashboardPage-[\w-]+\.js$/);
    await page.reload();
    await page.locator('input[name="kode_id"]').fill('KODE000001');
    expect(await hydrated(page, 'input[name="kode_id"]')).toBe(false);
    releaseDashboard();
    await expect.poll(() => hydrated(page, 'input[name="kode_id"]')).toBe(true);
    // Find reads the KODE ID from the form's own state: the vehicle typed before hydration is found.
    await lookUpVehicleTyped(page);
    expect(await page.locator('input[name="kode_id"]').inputValue()).toBe('KODE000001');
    console.expectClean();
  });
});

/** Presses Find for the KODE ID already in the field and waits for the vehicle's VIN. */
async function lookUpVehicleTyped(page: Page): Promise<void> {
  const form = page.locator('form').first();
  await form.locator('button[type="button"]').first().click();
  await expect
    .poll(() => form.locator('input[readonly]').first().inputValue(), { timeout: scaled(10_000) })
    .not.toBe('');
}
