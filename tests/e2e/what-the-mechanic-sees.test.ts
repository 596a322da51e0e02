/**
 * What the mechanic sees and where a tap lands, measured in the page rather than named: the account
 * menu's geometry at every tablet size, the emptied form after an Insert (no message for a field nobody
 * touched, the next tap on a tab taken at once, the page back at its top), a header that never claims
 * a connection it does not know, the storage warning as a sign that opens its explanation, and toasts
 * that never lie over a dialog.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import path from 'node:path';
import { SCREENSHOT_DIR } from './support/browser';
import {
  contextPerTest,
  fillRepairForm,
  findVehicle,
  openTab,
  registerPartner,
  repairForm,
  signIn,
  waitUntilReadyOffline,
  type Account,
} from './support/offline';
import { expectShownWhole, settled, TABLET_SIZES } from './support/geometry';
import { accountMenuButton, languageButton, recordRepairViaApi } from './support/pages';
import { DEMO_PARTNER } from './support/server';
import { useE2eSetting } from './support/setting';
import { scaled } from '../support/host-speed';

const e2e = useE2eSetting();
const tablet = contextPerTest(() => e2e.browser);

/**
 * The partner of the tests that need only someone signed in, registered once: a registration per test
 * reached the server's 5 per address and hour, and a retry's was refused. It signs in 5 times a pass,
 * so retries stay within its 10 sign-ins per 15 minutes; the demo partner signs in the other tests.
 */
let partner: Account;
beforeAll(async () => {
  partner = await registerPartner(e2e.portal.url, 'mechanic');
});

const KODE_ID_INVALID = 'Veuillez saisir un KODE ID valide';
const CONSENT_MISSING = 'Veuillez confirmer les informations avant de soumettre';

/** The screen as the mechanic sees it (fixed header and toasts where they are), for people to look at. */
async function viewShot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/** A finger on the element's centre where it rests now: no scrolling first, unlike a locator's click. */
async function tapWhereItIs(page: Page, target: Locator): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('the element to tap is not on the page');
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
}

async function signedIn(size: { width: number; height: number }): Promise<Page> {
  const context = await tablet.open();
  const page = await context.newPage();
  await page.setViewportSize(size);
  await signIn(page, e2e.portal.url, partner);
  return page;
}

describe('the account menu', () => {
  it('shows two whole 48-pixel items with 12–32 px icons at every tablet size', async () => {
    const context = await tablet.open();
    const page = await context.newPage();
    await signIn(page, e2e.portal.url, partner);
    for (const size of TABLET_SIZES) {
      await page.setViewportSize(size);
      await tapWhereItIs(page, accountMenuButton(page));
      const items = page.locator('[role="menu"]:visible [role="menuitem"]');
      await expect.poll(() => items.count()).toBe(2);
      // Wait for the opening animation to end: sizes are read on the menu at rest.
      await page.waitForTimeout(400);
      const measured = await items.evaluateAll((elements) =>
        elements.map((item) => {
          const box = item.getBoundingClientRect();
          const icon = item.querySelector('svg')?.getBoundingClientRect();
          const centre = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return {
            text: (item as HTMLElement).innerText.trim(),
            height: Math.round(box.height),
            icon: icon ? [Math.round(icon.width), Math.round(icon.height)] : null,
            clipped: item.scrollWidth > item.clientWidth,
            onTop: centre !== null && item.contains(centre),
          };
        }),
      );
      await viewShot(page, `account-menu-${size.width}x${size.height}`);
      expect(measured.map((item) => item.text)).toEqual(['Profil', 'Se déconnecter']);
      for (const item of measured) {
        expect(item.height, `${item.text} at ${size.width}`).toBeGreaterThanOrEqual(48);
        expect(item.height, `${item.text} at ${size.width}`).toBeLessThanOrEqual(64);
        for (const side of item.icon ?? [0, 0]) {
          expect(side, `${item.text}'s icon at ${size.width}`).toBeGreaterThanOrEqual(12);
          expect(side, `${item.text}'s icon at ${size.width}`).toBeLessThanOrEqual(32);
        }
        expect(item, `${item.text} at ${size.width}`).toMatchObject({ clipped: false, onTop: true });
      }
      await page.keyboard.press('Escape');
      await expect.poll(() => items.count()).toBe(0);
    }
  });

  // Seen on a loaded machine: the page scrolled while the menu was open, the menu went with the page
  // until its position was worked out again, and a tap on 'Se déconnecter' landed on the header.
  it('stays under its button while the page scrolls, as does the language menu', async () => {
    // The demo partner: the file's partner signs in as often as its retries leave room for.
    const page = await (await tablet.open()).newPage();
    await signIn(page, e2e.portal.url, DEMO_PARTNER);
    // The dashboard fits a landscape tablet without a scroll (tests/e2e/layout.test.ts): room below it
    // makes the page one that scrolls, as a longer screen (the History, the profile) is.
    await page.evaluate(() => document.querySelector('main')?.style.setProperty('padding-bottom', '100vh'));
    for (const trigger of [accountMenuButton(page), languageButton(page)]) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await tapWhereItIs(page, trigger);
      const menu = page.locator('[role="menu"]:visible');
      await menu.waitFor();
      await page.waitForTimeout(400); // its opening animation
      // Read in the same task as the scroll: before any scroll handler could place the menu again.
      const gap = await menu.evaluate((element) => {
        const trigger = document.querySelector(`[aria-controls="${element.id}"]`);
        if (!trigger) throw new Error('no trigger controls the menu');
        const before = element.getBoundingClientRect().top - trigger.getBoundingClientRect().bottom;
        window.scrollTo(0, 120);
        if (window.scrollY === 0) throw new Error('the page does not scroll at this size');
        const after = element.getBoundingClientRect().top - trigger.getBoundingClientRect().bottom;
        return { before: Math.round(before), after: Math.round(after) };
      });
      expect(gap.after).toBe(gap.before);
      await page.keyboard.press('Escape');
      await expect.poll(() => menu.count()).toBe(0);
    }
  });
});

describe('after an Insert', () => {
  it('the emptied form says nothing, the page is at its top, and one tap on a tab is enough, scrolled too', async () => {
    // A landscape screen lower than a tablet's (whose whole entry fits: tests/e2e/layout.test.ts), so that
    // the page is longer than the screen and filling the form scrolls it.
    const page = await signedIn({ width: 1024, height: 600 });
    const fields = repairForm(page);
    await findVehicle(page, 'T4GUH2M9UP', 'VF36SL2K6CM297511');
    await fillRepairForm(page, { kodeId: 'T4GUH2M9UP', odometer: 84_000, type: 'Vidange' });
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await fields.insert.press('Enter');
    await expect.poll(() => fields.kodeId.inputValue(), { timeout: scaled(15_000) }).toBe('');
    // Back at the top, where the alerts above the title are, the focus waiting in the identifier.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    expect(await fields.kodeId.evaluate((input) => input === document.activeElement)).toBe(true);

    const tabs = page.getByRole('tab');
    const history = page.getByRole('tab', { name: 'Historique' });
    const newEntry = page.getByRole('tab', { name: 'Nouvelle saisie' });
    await tapWhereItIs(page, history);
    await expect.poll(() => history.getAttribute('aria-selected'), { timeout: scaled(3_000) }).toBe('true');
    await tapWhereItIs(page, newEntry);
    await expect.poll(() => newEntry.getAttribute('aria-selected'), { timeout: scaled(3_000) }).toBe('true');
    expect(await page.getByText(KODE_ID_INVALID).count()).toBe(0);

    // Scrolled so that the tabs sit just under the header, the focus again in the empty identifier.
    await fields.kodeId.focus();
    await page.evaluate(() => {
      const list = document.querySelector('[role="tablist"]')!;
      window.scrollBy(0, list.getBoundingClientRect().top - 80);
    });
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    // Where the finger went down and where the click came: on the same tab (nothing moved in between).
    await page.evaluate(() => {
      const landed: string[] = [];
      (window as unknown as { landed: string[] }).landed = landed;
      const note = (event: Event) =>
        landed.push(`${event.type}:${(event.target as Element).closest('[role="tab"]')?.textContent ?? '-'}`);
      document.addEventListener('pointerdown', note, true);
      document.addEventListener('click', note, true);
    });
    await tapWhereItIs(page, history);
    await expect.poll(() => history.getAttribute('aria-selected'), { timeout: scaled(3_000) }).toBe('true');
    expect(await page.evaluate(() => (window as unknown as { landed: string[] }).landed)).toEqual([
      'pointerdown:Historique',
      'click:Historique',
    ]);
    expect(await page.getByText(KODE_ID_INVALID).count()).toBe(0);
    expect(await tabs.count()).toBe(3);
  });
});

describe('the header', () => {
  it('never says "En ligne" on an offline reload, and says "Hors ligne" once it knows', async () => {
    const page = await signedIn({ width: 800, height: 1280 });
    await waitUntilReadyOffline(page);
    // From the first parsed byte of the next load, every frame: which connection word the header shows.
    await page.addInitScript(() => {
      const shown = new Set<string>();
      (window as unknown as { connectionWordsShown: Set<string> }).connectionWordsShown = shown;
      const sample = () => {
        for (const word of Array.from(document.querySelectorAll('header button span span'))) {
          const text = word.textContent?.trim() ?? '';
          const visible = getComputedStyle(word).visibility === 'visible' && word.getClientRects().length > 0;
          if (visible && (text === 'En ligne' || text === 'Hors ligne')) shown.add(text);
        }
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    await tablet.context.setOffline(true);
    await page.reload();
    await expect
      .poll(() => page.locator('[role="status"][data-online="false"]').count(), { timeout: scaled(15_000) })
      .toBe(1);
    const shown = await page.evaluate(() => [
      ...(window as unknown as { connectionWordsShown: Set<string> }).connectionWordsShown,
    ]);
    expect(shown).toEqual(['Hors ligne']);
    await viewShot(page, 'header-offline-800x1280');
  });

  it('shows the storage warning as a warning sign whose meaning is in the name, and opens its explanation', async () => {
    const page = await signedIn({ width: 1024, height: 768 });
    // A browser tab's storage is not protected until the portal is installed: the warning is due.
    const indicator = page.locator('header button[aria-haspopup="dialog"]');
    await expect.poll(() => indicator.getAttribute('data-storage-risk')).toBe('true');
    expect(await indicator.getAttribute('aria-label')).toContain('stockage de la tablette à risque');
    const mark = await indicator.evaluate((button) => {
      const icons = Array.from(button.querySelectorAll('svg')).filter(
        (icon) => getComputedStyle(icon).visibility === 'visible' && icon.getBoundingClientRect().width > 0,
      );
      const sign = icons.at(-1);
      const box = sign?.getBoundingClientRect();
      return {
        icons: icons.length,
        size: box ? [Math.round(box.width), Math.round(box.height)] : null,
        colour: sign ? getComputedStyle(sign).color : null,
      };
    });
    // The connection's icon and the warning sign, nothing else: no bare coloured dot.
    expect(mark.icons).toBe(2);
    for (const side of mark.size ?? [0, 0]) {
      expect(side).toBeGreaterThanOrEqual(12);
      expect(side).toBeLessThanOrEqual(32);
    }
    // Not the error red of fg.error (red.600).
    expect(mark.colour).not.toBe('rgb(220, 38, 38)');
    await tapWhereItIs(page, indicator);
    const panel = page.getByRole('dialog', { name: 'Envoi des saisies' });
    await panel.waitFor();
    const heading = panel.getByRole('heading', { name: 'Stockage de la tablette' });
    await expect.poll(() => heading.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await heading.isVisible()).toBe(true);
    await viewShot(page, 'storage-warning-panel-1024x768');
  });
});

describe('toasts and dialogs', () => {
  // Seen in the layout gate on a loaded machine: a tap on the Kilométrage field, beside a toast on its way
  // out, landed on the toast. Zag leaves a "ghost" under a leaving toast (to keep its hover), taller than
  // the toast and taking taps, where the toast's own body lets them through.
  it('a toast on its way out lets every tap through, as it does while shown', async () => {
    const page = await (await tablet.open({ orientation: 'portrait' })).newPage();
    await signIn(page, e2e.portal.url, DEMO_PARTNER);
    const toast = page.locator('[data-scope="toast"][data-part="root"]').first();
    const close = toast.locator('[data-part="close-trigger"]');
    await toast.waitFor();
    // The pointer on it holds the toast (Zag pauses toasts under the pointer), as the click below
    // would: on a slow host the steps before the click took longer than its 5 s on screen.
    await close.hover();
    await settled(page);
    // Its way out frozen, to look at it for as long as a loaded machine needs.
    const devtools = await tablet.context.newCDPSession(page);
    await devtools.send('Animation.enable');
    await devtools.send('Animation.setPlaybackRate', { playbackRate: 0 });
    await close.click();
    await expect.poll(() => toast.getAttribute('data-state')).toBe('closed');
    const caught = await page.evaluate(() => {
      const group = document.querySelector('[data-scope="toast"][data-part="group"]');
      const taken: string[] = [];
      for (let y = 0; y < window.innerHeight; y += 8) {
        for (let x = 0; x < window.innerWidth; x += 8) {
          const hit = document.elementFromPoint(x, y);
          if (hit && group?.contains(hit) && !hit.closest('button')) taken.push(`${x},${y}`);
        }
      }
      return taken;
    });
    await devtools.send('Animation.setPlaybackRate', { playbackRate: 1 });
    expect(caught.length, `points a leaving toast takes: ${caught.slice(0, 5).join(' ')}…`).toBe(0);
  });

  it('a toast never lies over the sending panel, on a landscape tablet with entries waiting', async () => {
    const page = await signedIn({ width: 1024, height: 768 });
    await waitUntilReadyOffline(page);
    await tablet.context.setOffline(true);
    const fields = repairForm(page);
    await fillRepairForm(page, { kodeId: 'TEQUFH2RP7', odometer: 32_000, type: 'Vidange' });
    await fields.insert.press('Enter');
    // The saved entry's toast is up when the mechanic opens the panel.
    const toast = page.locator('[data-scope="toast"][data-part="root"]');
    await toast.first().waitFor();
    await tapWhereItIs(page, page.locator('header button[aria-haspopup="dialog"]'));
    const panel = page.getByRole('dialog', { name: 'Envoi des saisies' });
    await panel.waitFor();
    await page.waitForTimeout(400);
    expect(await toast.count()).toBeGreaterThan(0);
    const overlaps = await page.evaluate(() => {
      const dialog = document.querySelector('[role="dialog"]')!.getBoundingClientRect();
      return Array.from(document.querySelectorAll('[data-scope="toast"][data-part="root"]'))
        .map((element) => ({ text: (element as HTMLElement).innerText.trim(), box: element.getBoundingClientRect() }))
        .filter(
          ({ box }) =>
            box.width > 0 &&
            !(
              box.right <= dialog.left ||
              box.left >= dialog.right ||
              box.bottom <= dialog.top ||
              box.top >= dialog.bottom
            ),
        )
        .map(({ text }) => text);
    });
    await viewShot(page, 'toast-and-panel-1024x768');
    expect(overlaps).toEqual([]);
  });
});

describe('a form in a dialog', () => {
  it('brings the first refused field into view whole, its message too, when the dialog body scrolls', async () => {
    // The demo partner, with an entry to correct: the file's partner signs in as often as it may.
    await recordRepairViaApi(e2e.portal.url, DEMO_PARTNER, {
      kode_id: 'KODE000001',
      repair_type_id: 'oil_change',
      odometer: 100_000,
    });
    const page = await (await tablet.open()).newPage();
    await signIn(page, e2e.portal.url, DEMO_PARTNER);
    await openTab(page, 'Historique');
    for (const size of TABLET_SIZES) {
      await page.setViewportSize(size);
      // History is newest first: this attempt's entry. A retry also lists the failed attempt's below it.
      await page.getByRole('button', { name: 'Corriger le relevé KODE000001' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Corriger la saisie KODE000001' });
      await dialog.getByLabel('Motif de la correction').selectOption({ label: 'Erreur de saisie' });
      // The consent left unticked: the last field, below the body's fold on a landscape tablet.
      await dialog.getByRole('button', { name: 'Enregistrer la correction' }).click();
      const consent = dialog.getByRole('checkbox', { name: 'Je confirme que les informations saisies sont exactes' });
      await expect.poll(() => consent.evaluate((box) => box === document.activeElement)).toBe(true);
      const at = `${size.width}×${size.height}`;
      await expectShownWhole(page, consent, `the consent at ${at}`);
      await expectShownWhole(page, dialog.getByText(CONSENT_MISSING), `its message at ${at}`);
      await viewShot(page, `correction-consent-missing-${size.width}x${size.height}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }
  });
});
