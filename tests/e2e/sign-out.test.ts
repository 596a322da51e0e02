/**
 * Signing out on a shared tablet: a sign-out made offline is carried out on the server at the next
 * connection (the refresh cookie left in the browser no longer gives a session), and nothing of the
 * partner stays in the tablet's IndexedDB but their unsent entries, which still leave at their next
 * sign-in.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { perAttempt, SPARE_VEHICLES } from './support/attempt';
import {
  type Account,
  contextPerTest,
  dashboardHeading,
  findVehicle,
  openTab,
  readTabletDatabase,
  recordRepair,
  registerPartner,
  serverRepairs,
  SYNC_TIMEOUT,
  waitForPrecache,
  waitForServiceWorker,
} from './support/offline';
import { chooseAccountMenuItem } from './support/pages';
import { useE2eSetting } from './support/setting';

const e2e = useE2eSetting();
const tablet = contextPerTest(() => e2e.browser);

async function signInRemembered(page: Page, account: Account) {
  await page.goto(`${e2e.portal.url}/login`);
  await page.locator('input[name="email"]').fill(account.email);
  await page.locator('input[name="password"]').fill(account.password);
  await page.getByText('Se souvenir de moi').click();
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await dashboardHeading(page).waitFor();
}

/** Through the header's account menu; with entries waiting, the tablet asks first and the mechanic confirms. */
async function signOut(page: Page, options: { entriesWaiting: boolean }) {
  await chooseAccountMenuItem(page, 'logout');
  if (options.entriesWaiting) {
    await page.getByRole('alertdialog').getByRole('button', { name: 'Se déconnecter' }).click();
  }
  await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
}

describe('signing out on a shared tablet', () => {
  it('made offline, is carried out on the server at the next connection', async () => {
    const account = await registerPartner(e2e.portal.url, 'leave');
    const ctx = await tablet.open();
    tablet.allow(/Failed to load resource: the server responded with a status of 401/);
    const page = await ctx.newPage();
    await signInRemembered(page, account);
    await waitForServiceWorker(page);
    await waitForPrecache(page);

    await ctx.setOffline(true);
    await signOut(page, { entriesWaiting: false });
    await ctx.setOffline(false);

    // The tablet settles what it owes as soon as it is back online.
    await expect
      .poll(
        async () =>
          (await readTabletDatabase(page)).meta?.some((row) => (row as { key: string }).key === 'pending-sign-out'),
        SYNC_TIMEOUT,
      )
      .toBe(false);
    const refresh = await page.evaluate(async () => {
      const response = await fetch('/api/auth/refresh', { method: 'POST', headers: { 'X-Origin': location.origin } });
      return { status: response.status, body: await response.text() };
    });
    expect(refresh.status, refresh.body).toBe(401);
    expect(refresh.body).not.toContain('access_token');

    // And the gate sends anyone opening the dashboard to the sign-in page.
    await page.goto(`${e2e.portal.url}/`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
  });

  it('leaves nothing of the partner in IndexedDB but their unsent entries, which leave at the next sign-in', async ({
    task,
  }) => {
    // A retry starts from a vehicle of its own: its first attempt may have left 91,500 km on KODE000002,
    // and 91,000 below that asks the mechanic to confirm.
    const { kodeId, vin } = perAttempt(task, [{ kodeId: 'KODE000002', vin: 'VF12T7VY4HJ685969' }, SPARE_VEHICLES[0]]);
    const account = await registerPartner(e2e.portal.url, 'shared');
    const ctx = await tablet.open();
    const page = await ctx.newPage();
    await signInRemembered(page, account);
    await waitForServiceWorker(page);
    await waitForPrecache(page);
    const partnerId = await page.evaluate(async () => {
      const response = await fetch('/api/auth/refresh', { method: 'POST', headers: { 'X-Origin': location.origin } });
      return ((await response.json()) as { data: { user: { id: string } } }).data.user.id;
    });
    await findVehicle(page, kodeId, vin);
    await recordRepair(page, { kodeId, odometer: 91_000, type: 'Vidange' });
    await openTab(page, 'Historique');
    await ctx.setOffline(true);
    await openTab(page, 'Nouvelle saisie');
    await findVehicle(page, kodeId, vin);
    await recordRepair(page, { kodeId, odometer: 91_500, type: 'Vidange' });
    const before = await readTabletDatabase(page);
    expect(JSON.stringify(before.history)).toContain(partnerId);
    expect(JSON.stringify(before.accounts)).toContain(account.email);

    await signOut(page, { entriesWaiting: true });
    // The sign-in page shows as soon as the session is forgotten; the tablet's copy of the partner's
    // data goes in the same sign-out, a moment later.
    await expect
      .poll(async () => JSON.stringify((await readTabletDatabase(page)).accounts), SYNC_TIMEOUT)
      .not.toContain(partnerId);
    const after = await readTabletDatabase(page);
    const { outbox, ...rest } = after;
    const everythingElse = JSON.stringify(rest);
    for (const trace of [partnerId, account.email, '0555123456', vin, 'Garage shared']) {
      expect(everythingElse, trace).not.toContain(trace);
    }
    expect(outbox).toHaveLength(1);
    expect(outbox?.[0]).toMatchObject({ partnerId, entry: { kode_id: kodeId, odometer: 91_500 } });

    // The same partner signs in again once online: the entry leaves, once.
    await ctx.setOffline(false);
    await signInRemembered(page, account);
    await expect.poll(async () => (await serverRepairs(e2e.portal.url, account)).length, SYNC_TIMEOUT).toBe(2);
    await expect.poll(async () => (await readTabletDatabase(page)).outbox?.length, SYNC_TIMEOUT).toBe(0);
  });
});
