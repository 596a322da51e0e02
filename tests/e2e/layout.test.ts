/**
 * The layout gate: every screen state of the portal, at 800×1280, 1280×800 and 1024×768 in French
 * with the light theme and at 800×1280 in Arabic with the dark theme, goes through
 * - the layout audit (support/layout-audit.ts: no sideways scrolling, icons 12–32 px, no clipped
 *   text in a control, 48/44 px targets, nothing tapped through a toast or the header);
 * - a screenshot compared with its baseline in tests/e2e/baselines/ (support/baselines.ts; written
 *   only by `npm run test:update-baselines`);
 * - after each change of state a mechanic then taps on (a lookup, an Insert, a dialog closed, the
 *   language switched, back online), one tap on each tab and on the account menu, with the page
 *   scrolled down where it can be, must do what it says: the tab is selected, the menu opens.
 *
 * One signed-in tablet per viewport and language walks through the states in order (no sign-in per
 * state), so the whole gate takes a couple of minutes. Every finding of a walk is gathered and the
 * walk fails once at its end with all of them, grouped, and writes them to
 * test-results/layout/<variant>.txt. Taps go through Playwright's touchscreen at the element's centre,
 * as a finger does, never through locator.click (which scrolls the element into view first and waits
 * for it to hold still).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { checkBaseline, compareImages, updatingBaselines, withinTolerance } from './support/baselines';
import { newTabletContext, type TabletContextOptions } from './support/browser';
import { auditLayout, entryOutOfView, findingKey } from './support/layout-audit';
import { precachedPaths } from './support/offline';
import { TEST_RESULTS_DIR } from './support/paths';
import { scaled } from '../support/host-speed';
import { DEMO_PARTNER } from './support/server';
import {
  accountMenuButton,
  appColorMode,
  languageButton,
  newPartner,
  open,
  recordRepairViaApi,
  registerViaApi,
  signIn,
  toasts,
  translation,
  visitPublicPages,
  type Language,
  type PartnerAccount,
} from './support/pages';
import { useE2eSetting } from './support/setting';

const e2e = useE2eSetting();

interface Variant {
  /** Also the prefix of its baselines' names. */
  id: string;
  orientation: NonNullable<TabletContextOptions['orientation']>;
  language: Extract<Language, 'fr' | 'ar'>;
  theme: 'light' | 'dark';
  /**
   * A demo vehicle of its own: a lookup shows every garage's readings of a vehicle, so sharing one
   * would make a walk's timeline depend on which walks ran before it.
   */
  kodeId: string;
}

const VARIANTS: readonly Variant[] = [
  {
    id: 'fr-light-800x1280',
    orientation: 'portrait',
    language: 'fr',
    theme: 'light',
    kodeId: 'KODE000001',
  },
  {
    id: 'fr-light-1280x800',
    orientation: 'wide',
    language: 'fr',
    theme: 'light',
    kodeId: 'KODE000003',
  },
  {
    id: 'fr-light-1024x768',
    orientation: 'landscape',
    language: 'fr',
    theme: 'light',
    kodeId: 'V3SMJ5P6FX',
  },
  {
    id: 'ar-dark-800x1280',
    orientation: 'portrait',
    language: 'ar',
    theme: 'dark',
    kodeId: 'T4GUH2M9UP',
  },
];

interface Reading {
  repair_type_id: string;
  odometer: number;
  /** Recorded this long before the walk started. */
  hoursAgo: number;
}

/** Another garage's readings of the walk's vehicle: the first lookup shows a timeline. */
const OTHER_GARAGE_READINGS: readonly Reading[] = [
  { repair_type_id: 'oil_change', odometer: 116_000, hoursAgo: 3 },
  { repair_type_id: 'general_service', odometer: 116_400, hoursAgo: 2.5 },
];
/**
 * The walk partner's own earlier readings, recorded through the API once its first Insert is made:
 * that Insert is the partner's first entry, so the statistics above the tabs change as the mechanic
 * goes on (as on a new partner's first day); the History then has rows, one of the longest repair type.
 */
const OWN_READINGS: readonly Reading[] = [
  { repair_type_id: 'oil_change', odometer: 116_800, hoursAgo: 2 },
  { repair_type_id: 'suspension', odometer: 117_200, hoursAgo: 1.5 },
  { repair_type_id: 'general_service', odometer: 117_600, hoursAgo: 1 },
];
/** The first Insert: plausible after the other garage's last reading, stored without a question. */
const FIRST_READING = '117800';
/** Lower than the last reading: Insert asks to confirm it. */
const LOWER_READING = '100000';
/** A little above the lower reading, a few minutes later: plausible (the entry queued offline). */
const HIGHER_READING = '100500';

/**
 * Animations and transitions off, and no blinking caret, from the first paint of every page: a
 * dialog measured or photographed mid-animation would be a different size every run.
 */
const STILL_CSS =
  '*,*::before,*::after{animation:none!important;transition:none!important;caret-color:transparent!important}';

/** Dates and times as the portal writes them (src/lib/dates.ts), in every language. */
const DATE_TIME = /\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/;
const FIXED_DATE_TIME = '01/01/2000 00:00';
/**
 * A mileage certificate's id (contract/certificate.ts): four groups of four of its alphabet, a new one
 * each run, written over as the dates are.
 */
const CERTIFICATE_ID = /\b[0-9A-HJKMNP-TV-Z]{4}(?:-[0-9A-HJKMNP-TV-Z]{4}){3}\b/;
const FIXED_CERTIFICATE_ID = '0000-0000-0000-0000';
/** The test portal's address, on a port of its own each run: a certificate's page prints it under its id. */
const PORTAL_ORIGIN = /http:\/\/127\.0\.0\.1:\d+/;
const FIXED_PORTAL_ORIGIN = 'http://127.0.0.1:40000';
/**
 * What varies from run to run besides dates and ids, painted over: the storage figures in the sending
 * panel, and a certificate's QR code (its address holds the id).
 */
const VARIABLE = ['#storage-usage', '[role="meter"]', '[data-testid="certificate-qr"]'];
/**
 * Toasts are left out of the pictures: each hides itself after 5 s, so whether one is still there when
 * the picture is taken depends on the machine's speed. The audit checks them where they appear.
 */
const PICTURE_STYLE = '[data-scope="toast"][data-part="group"]{visibility:hidden!important}';

interface ConnectivitySample {
  at: number;
  /** The words visible in the header's connection button. */
  shown: string[];
}

/** Where the tapped element was at one event of a tap. */
interface TapStep {
  type: string;
  top: number;
  left: number;
}

declare global {
  interface Window {
    __layoutConnectivity?: ConnectivitySample[];
    __layoutTap?: TapStep[];
  }
}

function centre(box: { x: number; y: number; width: number; height: number }) {
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}

/** Polls a condition without failing: a tap that did not land is a finding, not an exception. */
async function becomes(condition: () => Promise<boolean>, timeout = 2_000): Promise<boolean> {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (await condition().catch(() => false)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * How long an Insert may take to empty the form: it waits up to 8 s for the server's first answer
 * (SYNC_POLICY.firstAnswerWaitMs), and on a loaded 2-core machine the rest can take as long again (a
 * clean-clone run's walk waited more than 15 s offline).
 */
const INSERT_TIMEOUT_MS = 30_000;

/** How long after a change the tabs must stay where they are. */
const LATE_RENDER_MS = 2_000;

/**
 * The tab list's place in the page (not in the viewport: a scroll is not a move) and the height of
 * each element before it, by a path-like name, to say what pushed it.
 */
function aboveTheTabs(page: Page): Promise<{ top: number; heights: Record<string, number> } | null> {
  return page.evaluate(() => {
    const list = document.querySelector('[role="tablist"]');
    if (!list) return null;
    const heights: Record<string, number> = {};
    for (let at: Element | null = list; at && at !== document.body; at = at.parentElement) {
      let index = 0;
      for (let sibling = at.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
        index += 1;
        const name = sibling.getAttribute('aria-label') ?? sibling.getAttribute('data-testid') ?? '';
        const key =
          `${at.parentElement?.tagName.toLowerCase() ?? ''} > ${sibling.tagName.toLowerCase()}` +
          `${name ? `[${name}]` : `:nth-before(${index})`}`;
        heights[key] = Math.round(sibling.getBoundingClientRect().height);
      }
    }
    return { top: Math.round(list.getBoundingClientRect().top + window.scrollY), heights };
  });
}

/** The field messages on screen (Chakra's error texts). */
function fieldMessages(page: Page): Promise<string[]> {
  return page
    .locator('[data-part="error-text"]:visible')
    .allInnerTexts()
    .then((texts) => texts.map((text) => text.trim()));
}

/**
 * Waits for a condition, failing with what was awaited. (Two walks run at once, and vitest's
 * expect.poll belongs to one test at a time: it cannot be used here, nor helpers built on it.)
 */
async function until(what: string, condition: () => Promise<boolean>, timeout = 10_000): Promise<void> {
  const budget = scaled(timeout);
  if (!(await becomes(condition, budget))) throw new Error(`waited ${budget} ms for ${what}`);
}

/** Selects a tab for the walk to go on (not a check: clicked, and again until it takes). */
async function chooseTab(tab: Locator): Promise<void> {
  await until(
    `the tab ${await tab.getAttribute('data-value')} selected`,
    async () => {
      if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
      return (await tab.getAttribute('aria-selected')) === 'true';
    },
    15_000,
  );
}

/**
 * The statistics' next answer from the server, to wait for once an entry is stored: the numbers above
 * the tabs change about a second later (STATISTICS_SETTLE_MS), and a picture taken before or after
 * that would differ. Listened for from before the action that causes it.
 */
function statisticsRefresh(page: Page): Promise<void> {
  return page
    .waitForResponse((response) => new URL(response.url()).pathname === '/api/partner/statistics', {
      timeout: 15_000,
    })
    .then(
      () => undefined,
      // None within 15 s (or the page closed): go on; a picture that then differs says so.
      () => undefined,
    );
}

/** What is at a point of the viewport, for a tap's finding. */
function elementAt(page: Page, point: { x: number; y: number }): Promise<string> {
  return page.evaluate(({ x, y }) => {
    const element = document.elementFromPoint(x, y);
    if (!element) return 'nothing';
    const role = element.getAttribute('role');
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `${element.tagName.toLowerCase()}${role ? `[role=${role}]` : ''}${text ? ` "${text}"` : ''}`;
  }, point);
}

/**
 * Lets fonts, map tiles (Leaflet fades them in over 200 ms, by script) and late renders settle before
 * a measure or a picture. With animations off, two frames and a short pause are enough for the rest.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const map = (await page.locator('.leaflet-container').count()) > 0;
  if (map) {
    await page.locator('.leaflet-tile-loaded').first().waitFor();
    await until(
      'the map tiles',
      async () => (await page.locator('.leaflet-tile:not(.leaflet-tile-loaded)').count()) === 0,
    );
  }
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.waitForTimeout(map ? 250 : 100);
}

/**
 * Closes the toasts of the state before, so a state shows its own. Through their close buttons'
 * click handlers in the page: quicker than pointer clicks, and nothing else on the page is touched.
 */
async function clearToasts(page: Page): Promise<void> {
  const closers = '[data-scope="toast"][data-part="root"] [data-part="close-trigger"]';
  // A toast may come while the others go (one that was on its way): a few rounds, then on regardless.
  await becomes(async () => {
    await page.evaluate((selector) => {
      for (const button of Array.from(document.querySelectorAll<HTMLElement>(selector))) button.click();
    }, closers);
    await page.waitForTimeout(50);
    return (await toasts(page).count()) === 0;
  });
}

/**
 * Writes one fixed moment over every date and time on the page, one id over every certificate's and
 * one address over the portal's, just before its picture. Painting them over (a mask) would not do: a mask is drawn above everything,
 * so a date behind a dialog's backdrop would blot out the dialog. The portal writes the real ones again
 * at its next render.
 */
function freezeVariableText(page: Page): Promise<void> {
  return page.evaluate(
    (replacements) => {
      const patterns = replacements.map(({ source, fixed }) => ({ pattern: new RegExp(source, 'g'), fixed }));
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.nodeValue ?? '';
        const frozen = patterns.reduce((value, { pattern, fixed }) => value.replace(pattern, fixed), text);
        if (frozen !== text) node.nodeValue = frozen;
      }
    },
    [
      { source: DATE_TIME.source, fixed: FIXED_DATE_TIME },
      { source: CERTIFICATE_ID.source, fixed: FIXED_CERTIFICATE_ID },
      { source: PORTAL_ORIGIN.source, fixed: FIXED_PORTAL_ORIGIN },
    ],
  );
}

interface StateOptions {
  /** false: audited only, no picture (a state the pictures of its neighbours already show). */
  baseline?: boolean;
  /** The Add repair tab is shown: its whole entry must be in view without a scroll (entry-fit). */
  entry?: boolean;
}

/** One walk: a tablet of one variant, and everything it found. */
class Walk {
  /** Each distinct violation (findingKey), its first description and the states it was seen in. */
  readonly violations = new Map<string, { detail: string; states: string[] }>();
  readonly taps: string[] = [];
  readonly baselines: string[] = [];
  readonly written: string[] = [];
  readonly states: string[] = [];
  /** Seconds from the walk's start at each state, for keeping the gate fast. */
  readonly timings: string[] = [];
  readonly primaryNames: string[];
  private readonly started = Date.now();

  constructor(
    readonly page: Page,
    readonly variant: Variant,
  ) {
    this.primaryNames = ['Rechercher', 'Scanner', 'Insérer'].map((name) => this.say(name));
  }

  /** A French text of the portal in the walk's language. */
  say(french: string): string {
    return translation(this.variant.language, french) ?? french;
  }

  /** A layout violation, or another finding of the walk (its rule is then the walk's own). */
  found(state: string, violation: { rule: string; detail: string }): void {
    const key = findingKey(violation);
    const seen = this.violations.get(key) ?? { detail: `[${violation.rule}] ${violation.detail}`, states: [] };
    if (!seen.states.includes(state)) seen.states.push(state);
    this.violations.set(key, seen);
  }

  /** The state as it is now: the audit, then its picture. */
  async check(state: string, options: StateOptions = {}): Promise<void> {
    const { page, variant } = this;
    await settle(page);
    const shown = { language: await page.getAttribute('html', 'lang'), theme: await appColorMode(page) };
    if (shown.language !== variant.language || shown.theme !== variant.theme) {
      throw new Error(`${state} is in ${JSON.stringify(shown)}, not in ${variant.language} and ${variant.theme}`);
    }
    this.states.push(state);
    this.timings.push(`${state} ${((Date.now() - this.started) / 1000).toFixed(1)}`);
    for (const violation of await auditLayout(page, { primaryNames: this.primaryNames })) this.found(state, violation);
    if (options.entry) for (const violation of await entryOutOfView(page)) this.found(state, violation);
    if (options.baseline === false) return;
    await freezeVariableText(page);
    const mask = VARIABLE.map((selector) => page.locator(selector));
    const outcome = await checkBaseline(page, `${variant.id}--${state}`, { mask, style: PICTURE_STYLE });
    if (outcome.status === 'written') this.written.push(outcome.message);
    if (outcome.status === 'missing' || outcome.status === 'mismatch')
      this.baselines.push(`${state}: ${outcome.message}`);
  }

  /** A finger on the element's centre; the element is scrolled into view first (this is getting somewhere, not a check). */
  async tap(target: Locator): Promise<void> {
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (!box) throw new Error(`nothing to tap: ${String(target)}`);
    const point = centre(box);
    await this.page.touchscreen.tap(point.x, point.y);
  }

  /**
   * Closes the open dialog with a tap on its close button (every dialog of the portal has one in its
   * corner); one that does not close so is a finding, and Escape closes it for the walk to go on.
   */
  async closeDialog(dialog: Locator, state: string): Promise<void> {
    const closer = dialog.locator('[data-part="close-trigger"]').first();
    await this.tap(closer);
    if (await becomes(async () => (await dialog.filter({ visible: true }).count()) === 0)) return;
    const box = await closer.boundingBox();
    const place = box ? `at (${centre(box).x},${centre(box).y})` : 'nowhere';
    this.taps.push(`${state}: a tap on the dialog's close button (${place}) did not close it`);
    await this.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  }

  /**
   * After a change of state: one tap on each tab (the others first, the selected one last, so the
   * state is back as it was) and on the account menu, each must work the first time. First at once,
   * with the page where the change left it, as a mechanic's next tap comes; then `meanwhile` (the
   * state's own check); then again with the page scrolled down by 200 px where it is tall enough
   * (landscape), the form partly out of view.
   *
   * Two things that steal such taps depend on timing, so they are looked for directly, whenever the
   * taps happen to land: the tabs moving in the page within 2 s of the change (a late render above
   * them, such as the statistics), and a field message that the taps alone brought up (the focus
   * leaving an untouched field).
   */
  async tapsAfter(change: string, meanwhile?: () => Promise<void>): Promise<void> {
    const { page } = this;
    const since = Date.now();
    const before = await aboveTheTabs(page);
    const messages = await fieldMessages(page);
    await this.tapRound(`after ${change}`);
    const shown = (await fieldMessages(page)).filter((message) => !messages.includes(message));
    if (shown.length > 0) {
      this.taps.push(
        `after ${change}: taps on the tabs and the menu alone (nothing typed) brought up ${shown
          .map((message) => `"${message}"`)
          .join(', ')}, which moves what is below it`,
      );
    }
    await meanwhile?.();
    await page.waitForTimeout(Math.max(0, LATE_RENDER_MS - (Date.now() - since)));
    const after = await aboveTheTabs(page);
    if (before && after && before.top !== after.top) {
      const changed = Object.keys(after.heights)
        .filter((part) => before.heights[part] !== after.heights[part])
        .map((part) => `${part} ${before.heights[part] ?? 'absent'} → ${after.heights[part]} px`);
      this.taps.push(
        `after ${change}: the tabs moved ${after.top - before.top} px in the page within ${LATE_RENDER_MS / 1000} s ` +
          `(from y ${before.top} to ${after.top}): ${changed.join('; ') || 'what changed is not above them'}; a tap ` +
          'then lands on what was beside them',
      );
    }
    const scrolled = await page.evaluate(() => {
      window.scrollTo(0, 200);
      return Math.round(window.scrollY);
    });
    if (scrolled > 0) await this.tapRound(`after ${change}, page scrolled to ${scrolled} px`);
  }

  private async tapRound(when: string): Promise<void> {
    const { page } = this;
    const tabs = page.locator('[role="tablist"] [role="tab"]');
    const count = await tabs.count();
    const selected = await tabs.evaluateAll((elements) =>
      elements.findIndex((tab) => tab.getAttribute('aria-selected') === 'true'),
    );
    const order = Array.from({ length: count }, (_, index) => (selected + 1 + index) % count);
    for (const index of order) {
      const tab = tabs.nth(index);
      const label = `the tab "${(await tab.innerText()).trim()}"`;
      const point = await this.tappablePoint(tab);
      const before = await elementAt(page, point);
      await this.watchedTap(tab, point, when, label);
      if (await becomes(async () => (await tab.getAttribute('aria-selected')) === 'true')) continue;
      const scrolled = await page.evaluate(() => Math.round(window.scrollY));
      this.taps.push(
        `${when}: one tap at (${point.x},${point.y}) on ${label} did not select it (under the finger ` +
          `before the tap: ${before}; after: ${await elementAt(page, point)}; page scrolled ${scrolled} px)`,
      );
      // A mechanic taps again; so does the walk, to go on from the state it meant to reach.
      await chooseTab(tab);
    }

    const trigger = accountMenuButton(page);
    const point = await this.tappablePoint(trigger);
    const before = await elementAt(page, point);
    await this.watchedTap(trigger, point, when, 'the account menu');
    const menu = page.locator('[role="menu"]:visible');
    if (await becomes(async () => (await menu.count()) > 0)) {
      // Closed by a tap on its trigger, as it was opened: Escape would leave a keyboard focus ring in the next picture.
      await page.touchscreen.tap(point.x, point.y);
      if (!(await becomes(async () => (await menu.count()) === 0))) await closeMenu(menu);
    } else {
      this.taps.push(
        `${when}: one tap at (${point.x},${point.y}) on the account menu did not open it ` +
          `(under the finger before the tap: ${before}; after: ${await elementAt(page, point)})`,
      );
    }
  }

  /**
   * One tap, watching where the target is at each of its events (pointerdown, mousedown, mouseup,
   * click). Chromium hit-tests the mouseup again, so a target that moves in between (a message shown
   * when the tap takes the focus from a field, a scroll that follows) can lose the tap; a move is a
   * finding even when this tap, at the very centre, still landed.
   */
  private async watchedTap(target: Locator, point: { x: number; y: number }, when: string, label: string) {
    await target.evaluate((element) => {
      const steps: TapStep[] = [];
      window.__layoutTap = steps;
      const record = (event: Event) => {
        const box = element.getBoundingClientRect();
        steps.push({ type: event.type, top: box.top, left: box.left });
      };
      for (const type of ['pointerdown', 'mousedown', 'mouseup', 'click']) {
        window.addEventListener(type, record, { capture: true, once: true });
      }
    });
    await this.page.touchscreen.tap(point.x, point.y);
    const steps = await this.page.evaluate(() => window.__layoutTap ?? []);
    const first = steps[0];
    const moved = first
      ? steps.find((step) => Math.abs(step.top - first.top) > 0.5 || Math.abs(step.left - first.left) > 0.5)
      : undefined;
    if (first && moved) {
      const dy = Math.round(moved.top - first.top);
      const dx = Math.round(moved.left - first.left);
      this.taps.push(
        `${when}: ${label} moved by (${dx},${dy}) px during one tap at (${point.x},${point.y}), between ` +
          `${first.type} and ${moved.type}: a finger near its edge misses it`,
      );
    }
  }

  /**
   * The element's centre, once it is on screen below the sticky header: the check is about the tap,
   * not about where a 200 px scroll happens to leave a tab.
   */
  private async tappablePoint(target: Locator): Promise<{ x: number; y: number }> {
    const { page } = this;
    const box = await target.boundingBox();
    if (!box) throw new Error(`nothing to tap: ${String(target)}`);
    const { headerBottom, height } = await page.evaluate(() => ({
      headerBottom: document.querySelector('header')?.getBoundingClientRect().bottom ?? 0,
      height: window.innerHeight,
    }));
    const point = centre(box);
    if (point.y >= headerBottom + 4 && point.y <= height - 4) return point;
    await page.evaluate((by) => window.scrollBy(0, by), point.y - (headerBottom + box.height));
    const moved = await target.boundingBox();
    if (!moved) throw new Error(`nothing to tap: ${String(target)}`);
    return centre(moved);
  }

  /** Everything found, grouped by rule; empty when the walk is clean. */
  report(): string {
    const lines: string[] = [];
    const rules = new Map<string, string[]>();
    for (const { detail, states } of this.violations.values()) {
      const rule = /^\[([\w-]+)\]/.exec(detail)?.[1] ?? 'other';
      rules.set(rule, [...(rules.get(rule) ?? []), `  - ${detail}\n      in ${states.join(', ')}`]);
    }
    for (const [rule, findings] of rules) lines.push(`${rule} (${findings.length}):`, ...findings);
    if (this.taps.length > 0) lines.push(`taps (${this.taps.length}):`, ...this.taps.map((tap) => `  - ${tap}`));
    if (this.baselines.length > 0) {
      lines.push(`baselines (${this.baselines.length}):`, ...this.baselines.map((line) => `  - ${line}`));
    }
    return lines.join('\n');
  }
}

/** The walk's partner: a fixed name and email (each test file has a fresh portal), so pictures need not hide them. */
function partnerOf(variant: Variant): PartnerAccount {
  return {
    ...newPartner('Layout'),
    full_name: 'Garage Atlas Bab Ezzouar',
    email: `atlas-${variant.id}@garage.test`,
    password: 'atlas-layout-2026',
  };
}

/**
 * The walks' partners, registered once for the file: the server takes 5 registrations an hour from one
 * address.
 */
const partners = new Map<string, PartnerAccount>();
/** "Another garage" for every walk: the demo partner, signed in once (sign-ins are limited per email). */
let otherGarageToken = '';

beforeAll(async () => {
  for (const variant of VARIANTS) {
    const partner = partnerOf(variant);
    await registerViaApi(e2e.portal.url, partner);
    partners.set(variant.id, partner);
  }
  const response = await fetch(`${e2e.portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-origin': e2e.portal.url },
    body: JSON.stringify({ ...DEMO_PARTNER, remember_me: false }),
  });
  const body = (await response.json()) as { data?: { access_token?: string } };
  otherGarageToken = body.data?.access_token ?? '';
  if (!otherGarageToken) throw new Error(`demo partner's sign-in: ${response.status} ${JSON.stringify(body)}`);
});

/** The readings' moments, relative to the walk's start: the timeline is drawn the same in every run. */
function recordedAt(start: number, reading: Reading): string {
  return new Date(start - reading.hoursAgo * 3_600_000).toISOString();
}

async function recordAsOtherGarage(kodeId: string, start: number, reading: Reading): Promise<void> {
  const url = e2e.portal.url;
  const response = await fetch(`${url}/api/partner/repairs`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${otherGarageToken}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
      'x-origin': url,
    },
    body: JSON.stringify({
      kode_id: kodeId,
      repair_type_id: reading.repair_type_id,
      odometer: reading.odometer,
      note: '',
      consented: true,
      recorded_at: recordedAt(start, reading),
    }),
  });
  if (response.status !== 201) throw new Error(`another garage's reading: ${response.status} ${await response.text()}`);
}

/** Records what the header's connection button shows in each frame of a page loaded offline. */
async function watchConnectivityWhileOffline(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    if (navigator.onLine) return;
    const samples: ConnectivitySample[] = [];
    window.__layoutConnectivity = samples;
    const sample = () => {
      const button = document.querySelector('header button[aria-haspopup="dialog"]');
      const words = button
        ? Array.from(button.querySelectorAll('span'))
            .filter((span) => span.childElementCount === 0 && (span.textContent ?? '').trim() !== '')
            .filter((span) => span.getClientRects().length > 0 && getComputedStyle(span).visibility === 'visible')
            .map((span) => (span.textContent ?? '').trim())
        : [];
      if (samples.at(-1)?.shown.join(' ') !== words.join(' '))
        samples.push({ at: Math.round(performance.now()), shown: words });
      if (performance.now() < 10_000) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
}

/**
 * A tablet without a camera, for certain: the scanner's picture is of its "no camera" message. Chromium
 * without a device says so too, but on a loaded machine it once answered otherwise (the picture of a
 * clean-clone run differed by 1 %), and this walk is about layout, not about Chromium's media stack.
 */
function withoutCamera(): void {
  const devices = navigator.mediaDevices as MediaDevices | undefined;
  if (!devices) return;
  devices.getUserMedia = () => Promise.reject(new DOMException('Requested device not found', 'NotFoundError'));
}

/**
 * A browser that keeps refusing to protect the storage, for certain: the header's storage mark, the
 * sending panel's "Non protégé" and Protect's toast are in the pictures. Chromium decides by its own
 * measure of how much the site is used, which a long walk on a slow machine can raise enough for a
 * yes (a clean-clone run's Protect brought no toast).
 */
function withoutPersistentStorage(): void {
  const storage = navigator.storage as StorageManager | undefined;
  if (!storage) return;
  storage.persist = () => Promise.resolve(false);
  storage.persisted = () => Promise.resolve(false);
}

/**
 * Opens `/` on a tablet of this variant where nobody is signed in, and returns each frame that showed
 * the dashboard's frame (its tabs, its title) before the sign-in screen: none, for a visitor must not
 * be promised a dashboard. Sampled at every animation frame of every document until /login is shown,
 * through a function the page calls (the first document is gone by then).
 */
async function signedOutVisitPaints(variant: Variant, url: string): Promise<string[]> {
  const context = await newTabletContext(e2e.browser, { orientation: variant.orientation, colorScheme: variant.theme });
  const painted: string[] = [];
  try {
    await context.exposeFunction('__dashboardPainted', (frame: string) => painted.push(frame));
    await context.addInitScript(() => {
      const report = (window as unknown as { __dashboardPainted: (frame: string) => void }).__dashboardPainted;
      const sample = () => {
        const shown = Array.from(document.querySelectorAll('[role="tablist"], h1')).find(
          (element) =>
            element.getClientRects().length > 0 &&
            element.checkVisibility({ visibilityProperty: true }) &&
            (element.matches('[role="tablist"]') || element.closest('main') !== null),
        );
        if (shown && location.pathname !== '/login') {
          report(`${Math.round(performance.now())} ms at ${location.pathname}: ${shown.textContent?.slice(0, 40)}`);
        }
        if (performance.now() < 5_000) requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    const page = await context.newPage();
    await page.goto(`${url}/`);
    await page.waitForURL(`${url}/login`, { timeout: scaled(15_000) });
    await page.locator('input[name="email"]').waitFor();
    return painted;
  } finally {
    await context.close();
  }
}

/** Opens the language menu in the header and picks a language, by taps. */
async function pickLanguage(run: Walk, language: Language): Promise<void> {
  const menu = run.page.locator('[role="menu"]:visible');
  if ((await menu.count()) === 0) {
    await run.tap(languageButton(run.page));
    await menu.waitFor();
  }
  await run.tap(menu.locator(`[role="menuitemradio"][data-value="${language}"]`));
  await until(`the page in ${language}`, async () => (await run.page.getAttribute('html', 'lang')) === language);
  await menu.waitFor({ state: 'hidden' });
}

/** An entry of the History: a row of the table from 1024 px, a card below. */
const ENTRY = ':is(table tbody tr, ul > li)[data-status]';

/** Escape from inside the menu (the focus may still be on its trigger, or elsewhere after a tap). */
async function closeMenu(menu: Locator): Promise<void> {
  await menu.press('Escape');
  await menu.waitFor({ state: 'hidden' });
}

/**
 * Walks every state on a tablet of this variant. An exception (a state that could not be reached)
 * ends the walk: it is returned with what was found until then, and a picture of the screen.
 */
async function walk(variant: Variant): Promise<{ run: Walk; error: unknown }> {
  const partner = partners.get(variant.id);
  if (!partner) throw new Error(`no partner registered for ${variant.id}`);
  const start = Date.now();
  for (const reading of OTHER_GARAGE_READINGS) await recordAsOtherGarage(variant.kodeId, start, reading);
  const context = await newTabletContext(e2e.browser, { orientation: variant.orientation, colorScheme: variant.theme });
  await context.addInitScript((css: string) => {
    // A reload starts at the top, not wherever the browser restores it to once the page is tall enough.
    history.scrollRestoration = 'manual';
    const add = () => {
      const style = document.createElement('style');
      style.textContent = css;
      document.head.append(style);
    };
    if (document.head) add();
    else document.addEventListener('DOMContentLoaded', add, { once: true });
  }, STILL_CSS);
  await watchConnectivityWhileOffline(context);
  await context.addInitScript(withoutCamera);
  await context.addInitScript(withoutPersistentStorage);
  const page = await context.newPage();
  const run = new Walk(page, variant);
  const say = (french: string) => run.say(french);
  const url = e2e.portal.url;
  const kodeId = variant.kodeId;
  const form = page.locator('form[method="dialog"]');
  const kodeInput = form.locator('input').first();
  const dialog = page.locator('[role="dialog"][aria-modal="true"], [role="alertdialog"][aria-modal="true"]');
  let error: unknown = null;

  try {
    // A signed-out visit to the dashboard's address: painted the sign-in screen from the first frame.
    const painted = await signedOutVisitPaints(variant, url);
    if (painted.length > 0) {
      run.found('signed-out-visit', {
        rule: 'signed-out-frame',
        detail: `a signed-out visit to / painted the dashboard's frame before /login: ${painted.join(', ')}`,
      });
    }

    // Signed out: the public pages, and the location picker of the registration.
    await open(page, url, '/login');
    if (variant.language !== 'fr') await pickLanguage(run, variant.language);
    await run.check('login');
    await visitPublicPages(page, url, (state) => run.check(state));
    await run.tap(page.locator('input[name="location"]'));
    await dialog.locator('.leaflet-container').waitFor();
    await dialog.getByRole('combobox').pressSequentially('alg');
    await dialog.getByRole('option').first().waitFor();
    await run.check('register-location-picker');
    await run.closeDialog(dialog, 'register-location-picker');

    // Signed in: the dashboard with the sign-in's toast, the menus, the language switched.
    await signIn(page, url, partner);
    await page.locator('[data-testid="statistics-fetched-at"]').waitFor();
    // Its picture is the account menu's, open over it.
    await run.check('dashboard', { baseline: false, entry: true });

    await clearToasts(page);
    await run.tap(languageButton(page));
    const menu = page.locator('[role="menu"]:visible');
    await menu.waitFor();
    await run.check('language-menu', { baseline: false });
    await pickLanguage(run, variant.language === 'fr' ? 'en' : 'fr');
    await pickLanguage(run, variant.language);
    await run.tapsAfter('the language switched');

    await run.tap(page.getByRole('button', { name: new RegExp(say('Menu du compte')) }));
    await menu.waitFor();
    await run.check('account-menu');
    await closeMenu(menu);

    // A lookup: the vehicle, its timeline and the lookup's toast.
    await kodeInput.fill(kodeId);
    await run.tap(form.getByRole('button', { name: say('Rechercher') }));
    await until('the vehicle found', async () => (await form.locator('input[readonly]').first().inputValue()) !== '');
    await page.locator('section[aria-labelledby="vehicle-timeline-title"] [role="img"]').waitFor();
    await toasts(page).first().waitFor();
    await run.tapsAfter('a vehicle lookup', () => run.check('vehicle-found', { entry: true }));

    // The vehicle's mileage certificate, from its timeline: asked for, then issued with the owner's consent.
    const timeline = page.locator('section[aria-labelledby="vehicle-timeline-title"]');
    await run.tap(timeline.getByRole('button', { name: say('Certificat kilométrique') }));
    await dialog.getByText(say('Aucun certificat émis pour ce véhicule.')).waitFor();
    await run.check('certificate-dialog');
    await run.tap(dialog.locator('input[name="owner_consent"]'));
    await run.tap(dialog.getByRole('button', { name: say('Émettre le certificat') }));
    const opener = dialog.getByRole('link', { name: say('Ouvrir le certificat') });
    await opener.waitFor({ timeout: scaled(15_000) });
    const certificateAddress = (await opener.getAttribute('href')) ?? '';
    await run.check('certificate-issued');
    await run.closeDialog(dialog, 'certificate-issued');
    await run.tapsAfter('the certificate dialog closed');

    // The partner's first Insert: the emptied form with its toast, and the taps a mechanic makes next.
    const fill = async (odometer: string) => {
      await form.locator('select').selectOption('oil_change');
      await form.locator('input[inputmode="numeric"]').fill(odometer);
      await form.locator('input[name="consented"]').press('Space');
    };
    await clearToasts(page);
    await fill(FIRST_READING);
    let counted = statisticsRefresh(page);
    await run.tap(form.locator('button[type="submit"]'));
    await until('the form emptied', async () => (await kodeInput.inputValue()) === '', INSERT_TIMEOUT_MS);
    await toasts(page).first().waitFor();
    await run.tapsAfter('an Insert', async () => {
      await counted;
      await run.check('inserted', { baseline: false, entry: true });
    });

    // The partner's earlier readings arrive through the API; the portal opened again shows them.
    for (const reading of OWN_READINGS) {
      await recordRepairViaApi(url, partner, {
        kode_id: kodeId,
        repair_type_id: reading.repair_type_id,
        odometer: reading.odometer,
        recorded_at: recordedAt(start, reading),
      });
    }
    await open(page, url, '/');
    await page.locator('[data-testid="statistics-fetched-at"]').waitFor();

    // A reading lower than the last one: Insert asks first.
    await kodeInput.fill(kodeId);
    await run.tap(form.getByRole('button', { name: say('Rechercher') }));
    await until('the vehicle found', async () => (await form.locator('input[readonly]').first().inputValue()) !== '');
    await fill(LOWER_READING);
    await run.tap(form.locator('button[type="submit"]'));
    const question = page.getByRole('alertdialog');
    await question.waitFor();
    await run.check('odometer-confirmation');
    counted = statisticsRefresh(page);
    await run.tap(question.getByRole('button', { name: say('Confirmer le kilométrage') }));
    await question.waitFor({ state: 'hidden' });
    await until('the form emptied', async () => (await kodeInput.inputValue()) === '', INSERT_TIMEOUT_MS);
    await counted;

    // History: the API's entries (one of the longest repair type) and the two inserted.
    await clearToasts(page);
    await chooseTab(page.locator('[role="tab"][data-value="history"]'));
    const entries = page.locator('[role="tabpanel"]:visible').locator(ENTRY);
    await entries.nth(OWN_READINGS.length + 1).waitFor();
    // Below the entries, the certificates the garage issued, read from the server.
    await page.getByRole('list', { name: say('Certificats kilométriques émis') }).waitFor();
    await run.check('history');
    await run.tap(entries.and(page.locator('[data-status="synced"]')).locator('button').first());
    await dialog.waitFor();
    await run.check('correction-dialog');
    await run.closeDialog(dialog, 'correction-dialog');
    await run.tapsAfter('the correction dialog closed');

    await chooseTab(page.locator('[role="tab"][data-value="advices"]'));
    await page.locator('[role="tabpanel"]:visible').waitFor();
    await run.check('advices');

    // The scanner: this tablet has no camera (walk's init script), so the dialog shows why and offers
    // the keyboard.
    await chooseTab(page.locator('[role="tab"][data-value="add"]'));
    await run.tap(form.getByRole('button', { name: say('Scanner') }));
    await dialog.waitFor();
    const problem = dialog.locator('[role="alert"][data-problem]');
    await problem.waitFor();
    const shown = await problem.getAttribute('data-problem');
    if (shown !== 'no_camera')
      throw new Error(`the scanner says ${shown}, not no_camera: ${await problem.innerText()}`);
    await run.check('scanner');
    await run.closeDialog(dialog, 'scanner');
    await run.tapsAfter('the scanner closed');

    // The sending panel; this tablet never protects the storage (withoutPersistentStorage), so Protect is
    // offered, and its toast says the browser refused.
    await run.tap(page.getByRole('button', { name: new RegExp(say("détails de l'envoi")) }));
    await dialog.waitFor();
    await until('the storage read', async () => !(await dialog.innerText()).includes(say('Lecture du stockage…')));
    const protect = dialog.getByRole('button', { name: say('Protéger le stockage') });
    await run.tap(protect);
    // A tap that brings no answer is a finding; the walk goes on.
    if (!(await becomes(async () => (await toasts(page).count()) > 0, 10_000))) {
      run.taps.push('sync-panel: a tap on the Protect button brought no answer within 10 s');
    }
    await run.check('sync-panel');
    await run.closeDialog(dialog, 'sync-panel');
    await run.tapsAfter('the sending panel closed');

    // The profile, through the account menu, and its location picker.
    await clearToasts(page);
    await run.tap(accountMenuButton(page));
    await menu.waitFor();
    await run.tap(menu.locator('[role="menuitem"][data-value="profile"]'));
    await page.waitForURL(`${url}/profile`);
    await page.locator('input[name="full_name"][readonly]').waitFor();
    // The connected devices below it load after the form, with their words and the server's list.
    await page.locator('#connected-devices [data-testid="device"]').first().waitFor();
    await run.check('profile');
    await run.tap(page.locator('form button[type="button"]').last());
    await page.locator('input[name="current_password"]').waitFor();
    await run.tap(page.locator('input[name="location"]'));
    await dialog.locator('.leaflet-container').waitFor();
    await run.check('profile-location-picker', { baseline: false });
    await run.closeDialog(dialog, 'profile-location-picker');

    // Offline: an entry queued on the tablet, a reload, the sign-out that asks first, back online.
    await open(page, url, '/');
    // The service worker holds the whole app (it controls the page) before the network goes.
    await until('the app precached', async () => (await precachedPaths(page)).includes('/index.html'), 20_000);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
    await context.setOffline(true);
    await page.locator('[role="status"][data-online="false"]').waitFor();
    await kodeInput.fill(kodeId);
    await run.tap(form.getByRole('button', { name: say('Rechercher') }));
    await until('the vehicle found', async () => (await form.locator('input[readonly]').first().inputValue()) !== '');
    await clearToasts(page);
    await fill(HIGHER_READING);
    await run.tap(form.locator('button[type="submit"]'));
    await until('the form emptied', async () => (await kodeInput.inputValue()) === '', INSERT_TIMEOUT_MS);
    await toasts(page).first().waitFor();
    // The offline header is in the sign-out question's picture, behind its backdrop.
    await run.check('offline-queued', { baseline: false });

    await page.reload();
    await page.locator('[role="tablist"]').waitFor();
    await page.locator('[role="status"][data-online="false"]').waitFor();
    const online = say('En ligne');
    const samples = await page.evaluate(() => window.__layoutConnectivity ?? []);
    const claimed = samples.findIndex((sample) => sample.shown.includes(online));
    if (claimed >= 0) {
      const gone = samples.slice(claimed).find((sample) => !sample.shown.includes(online));
      const frames = samples.map((sample) => `${sample.at} ms "${sample.shown.join(' ')}"`).join(', ');
      run.found('offline-reload', {
        rule: 'offline-header',
        detail:
          `reloaded offline, the header showed "${online}" from ${samples[claimed]!.at} ms ` +
          `${gone ? `to ${gone.at} ms` : 'on'} (frames: ${frames})`,
      });
    }
    await run.check('offline-reload', { baseline: false });

    await run.tap(accountMenuButton(page));
    await menu.waitFor();
    await run.tap(menu.locator('[role="menuitem"][data-value="logout"]'));
    await question.waitFor();
    await run.check('sign-out-confirmation');
    await run.tap(question.getByRole('button', { name: say('Rester connecté') }));
    await question.waitFor({ state: 'hidden' });

    await context.setOffline(false);
    // Back online, the queued entry leaves: the status says online and nothing else.
    const status = page.locator('[role="status"][data-online]');
    await until('the entry sent', async () => (await status.getAttribute('aria-label')) === online, 30_000);
    await run.tapsAfter('back online', () => run.check('back-online', { baseline: false }));

    // The certificate's public page, as a buyer opens the owner's link, then as it prints.
    await open(page, url, new URL(certificateAddress).pathname);
    await page.locator('[data-testid="certificate-verification"][data-outcome="verified"]').waitFor();
    await run.check('certificate-page');
    await page.emulateMedia({ media: 'print' });
    await run.check('certificate-print');
    await page.emulateMedia({ media: 'screen' });
  } catch (thrown) {
    error = thrown;
    const picture = path.join(TEST_RESULTS_DIR, 'layout', `${variant.id}--stopped.png`);
    await fs.mkdir(path.dirname(picture), { recursive: true });
    await page.screenshot({ path: picture }).catch(() => undefined);
  } finally {
    await context.close();
  }
  return { run, error };
}

/**
 * Two walks at a time: a walk spends much of its time waiting (the server, a toast, the 2 s after a
 * change), so two share the machine's two cores well; more would slow each walk's renders.
 */
const WALKS_AT_ONCE = 2;
/**
 * What one walk may take once it walks. A variant waits for a walk before it for up to one round
 * (four variants, two at a time), and that wait counts in vitest's timeout: its budget is two
 * walks', not one walk's stretched over the queue (on one core the third walk used to time out
 * before it had walked for two minutes).
 */
const WALK_BUDGET_MS = scaled(180_000);
const WALK_ROUNDS = Math.ceil(VARIANTS.length / WALKS_AT_ONCE);
let walking = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (walking >= WALKS_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  walking += 1;
  try {
    return await work();
  } finally {
    walking -= 1;
    waiting.shift()?.();
  }
}

describe.concurrent('layout audit and screenshot baselines', () => {
  for (const variant of VARIANTS) {
    it(
      `${variant.id}: every state laid out for a finger, as its baseline, taps landing the first time`,
      // No retry: a walk again would find its partner and its vehicle as the first one left them (a
      // first Insert that is no longer the first, another timeline), so it could only fail otherwise,
      // and write its findings over those of the first.
      { timeout: WALK_BUDGET_MS * WALK_ROUNDS, retry: 0 },
      async ({ expect }) => {
        const { run, error, seconds } = await inTurn(async () => {
          const started = Date.now();
          const walked = await walk(variant);
          return { ...walked, seconds: Math.round((Date.now() - started) / 1000) };
        });
        const report = run.report();
        const file = path.join(TEST_RESULTS_DIR, 'layout', `${variant.id}.txt`);
        await fs.mkdir(path.dirname(file), { recursive: true });
        const written = updatingBaselines() ? `; baselines: ${run.written.length} written` : '';
        const header = `${variant.id}: ${run.states.length} states in ${seconds} s${written}`;
        const stopped = error ? `stopped after ${run.states.at(-1) ?? 'no state'}: ${String(error)}\n` : '';
        const timings = `states reached at (s): ${run.timings.join(', ')}`;
        await fs.writeFile(file, [header, stopped + (report || 'clean'), ...run.written, timings].join('\n') + '\n');
        if (error) throw error;
        expect(run.states.length).toBeGreaterThan(20);
        expect(report, `${header}; the findings, also in ${path.relative(process.cwd(), file)}:\n${report}`).toBe('');
      },
    );
  }
});

describe('baseline comparison', () => {
  /** A tablet-sized light picture with one dark 160×48 "button" whose top left corner is at (x, y). */
  function picture(x: number, y: number): PNG {
    const png = new PNG({ width: 800, height: 1280 });
    for (let index = 0; index < png.width * png.height; index++) {
      const column = index % png.width;
      const row = Math.floor(index / png.width);
      const inButton = column >= x && column < x + 160 && row >= y && row < y + 48;
      png.data.fill(inButton ? 30 : 245, index * 4, index * 4 + 3);
      png.data[index * 4 + 3] = 255;
    }
    return png;
  }

  it('lets scattered noise pass and fails a button moved by 4 px', ({ expect }) => {
    const expected = picture(320, 600);
    const noisy = picture(320, 600);
    // 3,000 pixels changed all over, as anti-aliasing or hinting might: no patch anywhere.
    for (let step = 0; step < 3_000; step++) {
      const index = ((step * 7_919) % (noisy.width * noisy.height)) * 4;
      noisy.data[index] = 255 - (noisy.data[index] ?? 0);
    }
    expect(withinTolerance(compareImages(expected, noisy))).toBe(true);
    // 4 px lower: under 0.2 % of the picture, but a dense strip along two edges.
    const moved = compareImages(expected, picture(320, 604));
    expect(moved.ratio).toBeLessThan(0.005);
    expect(withinTolerance(moved)).toBe(false);
  });
});
