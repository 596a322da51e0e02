/**
 * Connected devices (docs/PRODUCT.md#connected-devices) in Chromium, against the real server: two
 * tablets signed in as one partner, one signs the other out from the profile; the other, whose entry
 * was queued offline, is locked out at its next contact with the reason on /login and its entry still
 * on it, and the entry reaches the server once when the same partner signs in there again. Then the
 * section's geometry on a portrait and a landscape tablet, and its screenshots in French (light) and
 * Arabic (dark), its confirmation open too, into /tmp/devices-shots/.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { newTabletContext, type TabletContextOptions } from './support/browser';
import {
  type Account,
  findVehicle,
  readTabletDatabase,
  recordRepair,
  registerPartner,
  serverRepairs,
  signIn,
  SYNC_TIMEOUT,
  waitForPrecache,
  waitForServiceWorker,
  watchConsole,
  type ConsoleWatch,
} from './support/offline';
import { chooseAccountMenuItem, dismissToasts, setAppColorMode, switchLanguage } from './support/pages';
import { useE2eSetting } from './support/setting';
import { scaled } from '../support/host-speed';

const e2e = useE2eSetting();
const SHOTS = '/tmp/devices-shots';
const SIGNED_OUT_ELSEWHERE = 'Cet appareil a été déconnecté depuis un autre appareil';

/** Every tablet a test opens, closed after it; any console error none of them expected fails the test. */
const opened: { context: BrowserContext; console: ConsoleWatch }[] = [];

async function tablet(options?: TabletContextOptions): Promise<BrowserContext> {
  const context = await newTabletContext(e2e.browser, options);
  opened.push({ context, console: watchConsole(context) });
  return context;
}

afterEach(async () => {
  const unexpected = opened.flatMap((entry) => entry.console.unexpected());
  await Promise.all(opened.splice(0).map((entry) => entry.context.close()));
  expect(unexpected, 'console errors').toEqual([]);
});

/** The profile's devices section. */
function devicesSection(page: Page): Locator {
  return page.locator('section#connected-devices');
}

function deviceItems(page: Page): Locator {
  return devicesSection(page).locator('[data-testid="device"]');
}

async function openDevices(page: Page): Promise<Locator> {
  await chooseAccountMenuItem(page, 'profile');
  await page.waitForURL(/\/profile$/);
  const section = devicesSection(page);
  await section
    .locator('[data-testid="device"]')
    .first()
    .waitFor({ timeout: scaled(15_000) });
  return section;
}

/** A session the server holds for the partner on another device: a sign-in from outside the browser; its access token. */
async function signInElsewhere(account: Account): Promise<string> {
  const response = await fetch(`${e2e.portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-origin': e2e.portal.url, 'accept-language': 'fr' },
    body: JSON.stringify({ email: account.email, password: account.password, remember_me: false }),
  });
  const body = (await response.json()) as { data?: { access_token?: string } };
  if (response.status !== 200 || !body.data?.access_token) {
    throw new Error(`login elsewhere: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.data.access_token;
}

/** Ends the session of this access token (the registration's), through the sessions' own calls. */
async function endOwnSession(token: string): Promise<void> {
  const headers = { authorization: `Bearer ${token}`, 'x-origin': e2e.portal.url, accept: 'application/json' };
  const list = await fetch(`${e2e.portal.url}/api/auth/sessions`, { headers });
  const sessions = ((await list.json()) as { data: { id: string; current: boolean }[] }).data;
  const own = sessions.find((session) => session.current);
  if (!own) throw new Error(`no current session in ${JSON.stringify(sessions)}`);
  const ended = await fetch(`${e2e.portal.url}/api/auth/sessions/${own.id}`, { method: 'DELETE', headers });
  if (ended.status !== 200) throw new Error(`end own session: ${ended.status} ${await ended.text()}`);
}

type OutboxRow = { partnerId: string; state: string; entry: { kode_id: string; odometer: number } };

describe('connected devices', () => {
  it('one tablet signs the other out: locked out at its next contact, its queued entry kept and sent once later', async () => {
    const registered = await registerPartner(e2e.portal.url, 'devices');
    // The registration's own session is not one of the two tablets: ended first.
    await endOwnSession(registered.token);
    const a = await (await tablet()).newPage();
    const contextB = await tablet();
    const b = await contextB.newPage();
    await signIn(a, e2e.portal.url, registered);
    await signIn(b, e2e.portal.url, registered);
    await waitForServiceWorker(b);
    await waitForPrecache(b);

    // B records an entry without the network: it waits in B's outbox.
    await findVehicle(b, 'KODE000002', 'VF12T7VY4HJ685969');
    await contextB.setOffline(true);
    await recordRepair(b, { kodeId: 'KODE000002', odometer: 93_000, type: 'Vidange' });
    const queued = (await readTabletDatabase(b)).outbox as OutboxRow[];
    expect(queued).toHaveLength(1);
    const partnerId = queued[0]!.partnerId;

    // A sees both tablets, itself marked, and signs B out.
    const section = await openDevices(a);
    await expect.poll(() => deviceItems(a).count()).toBe(2);
    expect(await section.getByText('Cet appareil', { exact: true }).count()).toBe(1);
    const other = deviceItems(a).filter({ hasNot: a.getByText('Cet appareil', { exact: true }) });
    await other.getByRole('button', { name: 'Déconnecter', exact: true }).click();
    const dialog = a.getByRole('alertdialog', { name: 'Déconnecter cet appareil ?' });
    await dialog.getByRole('button', { name: 'Déconnecter', exact: true }).click();
    await expect.poll(() => deviceItems(a).count()).toBe(1);
    await dialog.waitFor({ state: 'hidden' });
    // A itself stays signed in.
    expect(new URL(a.url()).pathname).toBe('/profile');
    // What the server holds is asked with a session of its own, from now on.
    const account: Account = { ...registered, token: await signInElsewhere(registered) };

    // B's network returns: at its next contact (the outbox's send) it is locked out, within 60 s.
    const back = Date.now();
    await contextB.setOffline(false);
    await expect.poll(() => new URL(b.url()).pathname, { timeout: scaled(60_000), interval: 250 }).toBe('/login');
    await expect
      .poll(() => b.getByRole('alert').filter({ hasText: SIGNED_OUT_ELSEWHERE }).count(), { timeout: scaled(10_000) })
      .toBe(1);
    expect(Date.now() - back).toBeLessThan(60_000);
    // Nothing of the partner stays on B but the queued entry, which waits for their next sign-in.
    await expect
      .poll(async () => JSON.stringify((await readTabletDatabase(b)).accounts), SYNC_TIMEOUT)
      .not.toContain(partnerId);
    const kept = (await readTabletDatabase(b)).outbox as OutboxRow[];
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ partnerId, entry: { kode_id: 'KODE000002', odometer: 93_000 } });
    expect(await serverRepairs(e2e.portal.url, account)).toHaveLength(0);
    // The reason stays on /login after a reload, until the next sign-in.
    await b.reload();
    await b.getByRole('alert').filter({ hasText: SIGNED_OUT_ELSEWHERE }).waitFor();

    // The same partner signs in on B again: the entry leaves, once, and the reason is gone.
    await signIn(b, e2e.portal.url, account);
    await expect.poll(async () => (await serverRepairs(e2e.portal.url, account)).length, SYNC_TIMEOUT).toBe(1);
    await expect.poll(async () => (await readTabletDatabase(b)).outbox?.length, SYNC_TIMEOUT).toBe(0);
    const [stored] = await serverRepairs(e2e.portal.url, account);
    expect(stored).toMatchObject({ vehicle: { kode_id: 'KODE000002' }, odometer: 93_000 });
    await chooseAccountMenuItem(b, 'logout');
    await b.waitForURL(/\/login$/);
    await b.locator('input[name="email"]').waitFor();
    expect(await b.getByText(SIGNED_OUT_ELSEWHERE).count()).toBe(0);
    expect(await serverRepairs(e2e.portal.url, account)).toHaveLength(1);
  });

  it('keeps its buttons inside a portrait and a landscape tablet, 44 px high at least; screenshots in fr and ar', async () => {
    const account = await registerPartner(e2e.portal.url, 'devices-shots');
    // Two other devices: the registration's session and a sign-in, both from outside a browser.
    await signInElsewhere(account);
    const context = await tablet({ orientation: 'portrait' });
    const page = await context.newPage();
    await signIn(page, e2e.portal.url, account);
    await fs.mkdir(SHOTS, { recursive: true });

    const viewports = [
      { name: '800x1280', size: { width: 800, height: 1280 } },
      { name: '1024x768', size: { width: 1024, height: 768 } },
    ];

    /** Every button of the section, scrolled into view: inside the viewport and 44 px high at least. */
    async function checkButtons(width: number, height: number) {
      const buttons = devicesSection(page).getByRole('button');
      const count = await buttons.count();
      expect(count).toBe(3); // Two "Déconnecter" and "Déconnecter tous les autres".
      for (let index = 0; index < count; index += 1) {
        const button = buttons.nth(index);
        await button.scrollIntoViewIfNeeded();
        const box = await button.boundingBox();
        const name = (await button.textContent()) ?? '';
        expect(box, name).not.toBeNull();
        expect(box!.height, `${name} height`).toBeGreaterThanOrEqual(44);
        expect(box!.x, `${name} start`).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width, `${name} end`).toBeLessThanOrEqual(width);
        expect(box!.y, `${name} top`).toBeGreaterThanOrEqual(0);
        expect(box!.y + box!.height, `${name} bottom`).toBeLessThanOrEqual(height);
      }
    }

    async function shoot(variant: string) {
      // The sign-in's toast would stand over the section's lower part.
      await dismissToasts(page);
      for (const { name, size } of viewports) {
        await page.setViewportSize(size);
        await checkButtons(size.width, size.height);
        // From the top (a full-page picture of a scrolled page repeats the sticky header lower down), and
        // without the focus ring a closed dialog hands back to its button.
        await page.evaluate(() => {
          window.scrollTo(0, 0);
          if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
        });
        await page.screenshot({ path: path.join(SHOTS, `${variant}-${name}.png`), fullPage: true });
        await devicesSection(page).scrollIntoViewIfNeeded();
        // The confirmation of "sign out all the others", open.
        await devicesSection(page).getByRole('button').last().click();
        const dialog = page.getByRole('alertdialog');
        await dialog.waitFor();
        await page.waitForTimeout(400); // its opening animation
        await page.screenshot({ path: path.join(SHOTS, `${variant}-${name}-dialog.png`) });
        // Escape cancels: nothing is signed out.
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'hidden' });
      }
    }

    await openDevices(page);
    await expect.poll(() => deviceItems(page).count()).toBe(3);
    await devicesSection(page).getByText('Connexions récentes').waitFor();
    await shoot('fr-light');

    // Arabic and dark, the section opened anew once the language changed (its Arabic words load then).
    await page.getByRole('link', { name: 'Fermer' }).click();
    await page.waitForURL(`${e2e.portal.url}/`);
    await switchLanguage(page, 'ar');
    await setAppColorMode(page, 'dark');
    await openDevices(page);
    await devicesSection(page).getByRole('heading', { name: 'الأجهزة المتصلة' }).waitFor();
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    await expect.poll(() => deviceItems(page).count()).toBe(3);
    await shoot('ar-dark');

    // The keyboard reaches "Déconnecter" and opens its confirmation; Escape gives it up.
    const first = devicesSection(page).getByRole('button').first();
    await first.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').waitFor({ state: 'hidden' });
    await expect.poll(() => deviceItems(page).count()).toBe(3);
  });
});
