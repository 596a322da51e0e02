/**
 * The portal's journeys as a garage goes through them, against the real server on a fresh embedded
 * database, with the geocoder and the tiles served by the local stubs. Assertions are on what the
 * user sees, with the French texts of docs/PRODUCT.md#messages-and-toasts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { newTabletContext } from './support/browser';
import {
  accountMenuButton,
  chooseAccountMenuItem,
  expectToast,
  fillRegistration,
  FR,
  heading1,
  languageButton,
  newPartner,
  open,
  openTab,
  registerViaApi,
  signIn,
  signOut,
  submitLogin,
  switchLanguage,
  translation,
  watchConsole,
  type ConsoleWatch,
  type PartnerAccount,
} from './support/pages';
import { DEMO_PARTNER } from './support/server';
import { useE2eSetting } from './support/setting';

const e2e = useE2eSetting();
/** Signed in by the language and session-gate journeys, never changed. */
let shared: PartnerAccount;

beforeAll(async () => {
  shared = newPartner('Partage');
  await registerViaApi(e2e.portal.url, shared);
});

/** A fresh tablet for each journey: its own cookies, storage and console watch. */
async function fresh(): Promise<{ context: BrowserContext; page: Page; watch: ConsoleWatch }> {
  const context = await newTabletContext(e2e.browser);
  const page = await context.newPage();
  return { context, page, watch: watchConsole(page) };
}

/** Every request the page makes while `action` runs and for `quietMs` after it. */
async function requestsDuring(page: Page, action: () => Promise<void>, quietMs = 700): Promise<Request[]> {
  const seen: Request[] = [];
  const listener = (request: Request) => seen.push(request);
  page.on('request', listener);
  try {
    await action();
    await page.waitForTimeout(quietMs);
  } finally {
    page.off('request', listener);
  }
  return seen;
}

function url(path: string): string {
  return `${e2e.portal.url}${path}`;
}

describe('journey 1: register, sign out and in, record a repair', () => {
  it('registers through the form with the phone mask and the map picker, then records KODE000001', async () => {
    const { context, page, watch } = await fresh();
    const partner = newPartner('Inscription');
    try {
      await open(page, e2e.portal.url, '/login');
      await page.getByRole('link', { name: 'Créer un compte partenaire' }).click();
      await page.waitForURL(url('/register'));
      await expect.poll(() => heading1(page).textContent()).toBe('Créer un compte partenaire');

      await fillRegistration(page, partner);

      // The location: read-only "latitude, longitude", the registration default until one is chosen.
      const location = page.locator('input[name="location"]');
      expect(await location.inputValue()).toBe('36, 3');
      expect(await location.getAttribute('readonly')).not.toBeNull();
      await location.click();
      const dialog = page.getByRole('dialog', { name: 'Choisir la localisation' });
      await dialog.waitFor();
      const selected = dialog.getByTestId('selected-point');
      await expect.poll(() => selected.textContent()).toBe('Point sélectionné : 36, 3');
      // Clicking the map moves the point.
      const map = dialog.locator('.leaflet-container');
      await map.waitFor();
      await dialog.locator('.leaflet-tile-loaded').first().waitFor();
      const box = (await map.boundingBox())!;
      await map.click({ position: { x: box.width / 2 + 120, y: box.height / 2 - 80 } });
      await expect.poll(() => selected.textContent()).not.toBe('Point sélectionné : 36, 3');
      const clicked = (await selected.textContent())!.replace('Point sélectionné : ', '').split(', ').map(Number);
      expect(clicked[0]).toBeGreaterThan(36);
      expect(clicked[1]).toBeGreaterThan(3);
      // Searching "alg" (at least 3 characters) offers the Algiers districts; choosing one moves the point there.
      await dialog.getByRole('combobox', { name: 'Rechercher une adresse' }).pressSequentially('alg');
      const options = dialog.getByRole('option');
      await options.first().waitFor();
      expect(await options.allTextContents()).toEqual([
        'Alger Centre, Alger, Algérie',
        'Bab El Oued, Alger, Algérie',
        'El Harrach, Alger, Algérie',
      ]);
      expect(e2e.stubs.hits('/photon/api')).toBeGreaterThan(0);
      await dialog.getByRole('option', { name: 'Bab El Oued, Alger, Algérie' }).click();
      await expect
        .poll(() => selected.textContent())
        .toBe('Point sélectionné : Bab El Oued, Alger, Algérie — 36.7906, 3.0506');
      await dialog.getByRole('button', { name: 'Confirmer' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await location.inputValue()).toBe('36.7906, 3.0506');
      await page.getByText('Bab El Oued, Alger, Algérie').waitFor();

      // Privacy conditions: the box links to the text and must be ticked.
      const conditions = page.getByRole('link', { name: 'conditions de confidentialité' });
      expect(await conditions.getAttribute('href')).toBe('/privacy-conditions');
      await page.locator('label[data-scope="checkbox"]').locator('[data-part="control"]').click();
      await expect.poll(() => page.locator('input[name="privacy_conditions"]').isChecked()).toBe(true);

      const registration = page.waitForRequest((request) => request.url().endsWith('/api/auth/register/partner'));
      await page.getByRole('button', { name: 'S’inscrire' }).click();
      expect((await registration).postDataJSON()).toMatchObject({
        full_name: partner.full_name,
        email: partner.email,
        phone_number: '0555123456',
        location: { latitude: 36.7906, longitude: 3.0506 },
      });
      await expectToast(page, 'success', 'Votre compte partenaire a été créé. Bienvenue !');
      await page.waitForURL(url('/'));
      await expect.poll(() => heading1(page).textContent()).toBe(FR.dashboardTitle);
      await page.getByText(FR.dashboardSubtitle).waitFor();
      expect(await accountMenuButton(page).textContent()).toContain(partner.full_name);
      // Registration signs in for this visit only (no remember-me): a session cookie.
      // (The refresh cookie by name: the sign-in device cookie beside it lives a year on purpose.)
      const refreshCookies = async () =>
        (await context.cookies(url('/api/auth/refresh'))).filter((cookie) => cookie.name === 'refresh_token');
      const afterRegister = await refreshCookies();
      expect(afterRegister.length).toBeGreaterThan(0);
      expect(afterRegister.every((cookie) => cookie.expires === -1)).toBe(true);

      // Sign out through the user menu, then in again with remember-me.
      await signOut(page, e2e.portal.url);
      // The sign-in fills the tablet with the partner's history in the background (a GET of their
      // repairs): awaited, so that it does not fall into the window below where nothing may be sent.
      const historyFilled = page.waitForResponse(
        (response) => response.request().method() === 'GET' && response.url().includes('/api/partner/repairs'),
      );
      await submitLogin(page, partner, { remember: true });
      await expectToast(page, 'success', 'Connexion réussie');
      await page.waitForURL(url('/'));
      await expect.poll(() => heading1(page).textContent()).toBe(FR.dashboardTitle);
      await historyFilled;
      const remembered = await refreshCookies();
      expect(remembered.some((cookie) => cookie.expires > Date.now() / 1000 + 29 * 24 * 3600)).toBe(true);

      // Insert on an empty form: the four messages of docs/PRODUCT.md#validation-rules, nothing sent.
      const form = page.getByRole('form', { name: 'Nouvelle saisie' });
      const kodeId = form.getByRole('textbox', { name: 'Identifiant du véhicule (KODE ID)' });
      const sent = await requestsDuring(page, async () => {
        await form.getByRole('button', { name: 'Insérer' }).click();
        for (const message of [FR.kodeIdInvalid, FR.odometerInvalid, FR.repairTypeRequired, FR.consentRequired]) {
          await form.getByText(message, { exact: true }).waitFor();
        }
      });
      expect(sent.filter((request) => request.method() !== 'GET').map((r) => `${r.method()} ${r.url()}`)).toEqual([]);
      expect(sent.filter((request) => request.url().includes('/api/partner/repairs'))).toEqual([]);
      // The first field in error takes the focus.
      expect(await kodeId.evaluate((input) => input === document.activeElement)).toBe(true);

      // Find repeats the identifier check as an error toast.
      await kodeId.fill('KODE01');
      await form.getByRole('button', { name: 'Rechercher' }).click();
      await expectToast(page, 'error', FR.kodeIdInvalid);

      // Lookup of KODE000001: the four read-only fields and a toast.
      await kodeId.fill('KODE000001');
      await form.getByRole('button', { name: 'Rechercher' }).click();
      await expectToast(page, 'success', 'Véhicule trouvé');
      const readOnly = { VIN: 'VF1S1CD16RB267735', Modèle: 'Symbol', Marque: 'Renault', Année: '2024' };
      for (const [label, value] of Object.entries(readOnly)) {
        const field = form.getByRole('textbox', { name: label, exact: true });
        await expect.poll(() => field.inputValue()).toBe(value);
        expect(await field.getAttribute('readonly')).not.toBeNull();
      }
      await form.getByText(FR.kodeIdInvalid).waitFor({ state: 'detached' });

      await form.getByRole('combobox', { name: 'Type de panne' }).selectOption({ label: 'Vidange' });
      await form.getByRole('textbox', { name: 'Kilométrage' }).fill('120000');
      await form.getByText('Je confirme que les informations saisies sont exactes').click();
      for (const message of [FR.kodeIdInvalid, FR.odometerInvalid, FR.repairTypeRequired, FR.consentRequired]) {
        expect(await form.getByText(message, { exact: true }).count()).toBe(0);
      }
      const posted = page.waitForRequest(
        (request) => request.method() === 'POST' && request.url().endsWith('/api/partner/repairs'),
      );
      const insertedAt = Date.now();
      await form.getByRole('button', { name: 'Insérer' }).click();
      expect((await posted).postDataJSON()).toMatchObject({
        kode_id: 'KODE000001',
        odometer: 120000,
        repair_type_id: 'oil_change',
        consented: true,
        vin: 'VF1S1CD16RB267735',
        brand: 'Renault',
        model: 'Symbol',
      });
      const success = await expectToast(page, 'success', 'Opération réussie');
      expect(await success.textContent()).toContain('La saisie a été enregistrée.');
      // The form starts over.
      await expect.poll(() => kodeId.inputValue()).toBe('');
      expect(await form.getByRole('textbox', { name: 'VIN', exact: true }).inputValue()).toBe('');

      // History: the entry with its reading in km and its date as DD/MM/YYYY HH:mm.
      await openTab(page, 'history');
      const rows = page.locator('table tbody tr');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(1);
      const cells = (await rows.first().locator('td').allInnerTexts()).map((text) => text.trim());
      expect(cells[0]).toBe('KODE000001');
      expect(cells[1]).toMatch(/^120\s000 km$/);
      expect(cells[2]).toBe('Vidange');
      expect(cells[3]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
      const [day, month, year, hours, minutes] = cells[3]!.split(/[/ :]/).map(Number) as [
        number,
        number,
        number,
        number,
        number,
      ];
      const shown = new Date(year, month - 1, day, hours, minutes).getTime();
      expect(Math.abs(shown - insertedAt)).toBeLessThan(3 * 60_000);
      // The server's verdict (docs/PRODUCT.md#odometer-plausibility), then where the entry stands.
      expect(cells[4]).toMatch(/^(Premier relevé|Plausible)\n/);
      expect(cells[4]).toContain('Corrigeable jusqu’au');
      expect(cells[5]).toBe('Envoyée');
      const headers = (await page.locator('table thead th').allInnerTexts()).map((text) => text.trim());
      expect(headers).toEqual([
        'Identifiant du véhicule',
        'Kilométrage',
        'Type de panne',
        'Date de saisie',
        'Vérification',
        'Statut',
      ]);

      watch.expectClean();
    } finally {
      await context.close();
    }
  });
});

describe('journey 2: forgotten password', () => {
  it('resets the password from the mailed link; the old one stops working', async () => {
    const { context, page, watch } = await fresh();
    const newPassword = 'garage-nouveau-2026';
    try {
      await open(page, e2e.portal.url, '/login');
      await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
      await page.waitForURL(url('/forgot-password'));
      await expect.poll(() => heading1(page).textContent()).toBe('Mot de passe oublié');
      const mailsBefore = (await e2e.portal.readMails()).length;
      await page.getByRole('textbox', { name: 'E-mail' }).fill(DEMO_PARTNER.email);
      await page.getByRole('button', { name: 'Envoyer le lien' }).click();
      await expectToast(page, 'success', 'E-mail envoyé');
      await page.waitForURL(url('/login'));

      const link = await e2e.portal.latestResetLink({ minMails: mailsBefore + 1 });
      expect(new URL(link).searchParams.get('token')).toMatch(/^v4\./);
      await page.goto(link);
      await expect.poll(() => heading1(page).textContent()).toBe('Nouveau mot de passe');
      // The token leaves the address bar (and the history) at once.
      expect(page.url()).toBe(url('/reset-password'));

      const newField = page.locator('input[name="new_password"]');
      const confirmField = page.locator('input[name="confirm_password"]');
      const sent = await requestsDuring(page, async () => {
        await newField.fill(newPassword);
        await confirmField.fill('garage-autre-2026');
        await page.getByRole('button', { name: 'Confirmer', exact: true }).click();
        await page.getByText('Les mots de passe ne correspondent pas').waitFor();
      });
      expect(sent.filter((request) => request.url().includes('/api/auth/reset-password'))).toEqual([]);
      expect(await confirmField.getAttribute('aria-invalid')).toBe('true');

      await confirmField.fill(newPassword);
      const answered = page.waitForResponse((response) => response.url().endsWith('/api/auth/reset-password'));
      await page.getByRole('button', { name: 'Confirmer', exact: true }).click();
      expect((await answered).status()).toBe(200);
      const answeredAt = Date.now();
      await expectToast(page, 'success', 'Opération réussie');
      expect(page.url()).toBe(url('/reset-password'));
      await page.waitForURL(url('/login'));
      const delay = Date.now() - answeredAt;
      expect(delay).toBeGreaterThanOrEqual(900);
      expect(delay).toBeLessThan(3_000);

      // The new password works...
      await submitLogin(page, { email: DEMO_PARTNER.email, password: newPassword });
      await page.waitForURL(url('/'));
      await expect.poll(() => heading1(page).textContent()).toBe(FR.dashboardTitle);
      await signOut(page, e2e.portal.url);
      // ...the old one no longer does: the server's message in an error toast, still on /login.
      await submitLogin(page, DEMO_PARTNER);
      await expectToast(page, 'error', 'E-mail ou mot de passe incorrect');
      expect(page.url()).toBe(url('/login'));

      // The link is single use.
      await page.goto(link);
      await newField.fill('garage-encore-2026');
      await confirmField.fill('garage-encore-2026');
      await page.getByRole('button', { name: 'Confirmer', exact: true }).click();
      const refused = await expectToast(page, 'error', 'Opération échouée');
      expect(await refused.textContent()).toContain('Lien de réinitialisation invalide ou expiré');
      expect(page.url()).toBe(url('/reset-password'));

      watch.expectClean([
        /status of 401 \(Unauthorized\) @ .*\/api\/auth\/login$/,
        /status of 400 \(Bad Request\) @ .*\/api\/auth\/reset-password$/,
      ]);
    } finally {
      await context.close();
    }
  });

  it('sends /reset-password without a token, or with one not starting with v4., back to /login', async () => {
    const { context, page, watch } = await fresh();
    try {
      for (const path of ['/reset-password', '/reset-password?token=abc.def', '/reset-password?token=v3.local.x']) {
        await page.goto(url(path));
        await page.waitForURL(url('/login'));
        await expectToast(page, 'error', 'Opération échouée');
        await page.locator('input[name="email"]').waitFor();
      }
      watch.expectClean();
    } finally {
      await context.close();
    }
  });
});

describe('journey 3: profile', () => {
  it('shows the profile read-only, edits, cancels, saves the name and changes the password', async () => {
    const { context, page, watch } = await fresh();
    const partner = newPartner('Profil');
    await registerViaApi(e2e.portal.url, partner);
    const renamed = 'Garage Ben Ali Rouiba';
    const newPassword = 'profil-nouveau-2026';
    try {
      await signIn(page, e2e.portal.url, partner);
      await chooseAccountMenuItem(page, 'profile');
      await page.waitForURL(url('/profile'));
      await expect.poll(() => heading1(page).textContent()).toBe('Mon profil');
      expect(await page.getByRole('link', { name: 'Fermer' }).getAttribute('href')).toBe('/');

      const fullName = page.locator('input[name="full_name"]');
      const email = page.locator('input[name="email"]');
      const phone = page.locator('input[name="phone_number"]');
      const location = page.locator('input[name="location"]');
      const readOnlyValues = async () => ({
        full_name: await fullName.inputValue(),
        email: await email.inputValue(),
        phone: await phone.inputValue(),
        location: await location.inputValue(),
      });
      const original = {
        full_name: partner.full_name,
        email: partner.email,
        phone: '0555123456',
        location: '36.7731, 3.0587',
      };
      expect(await readOnlyValues()).toEqual(original);
      for (const field of [fullName, email, phone, location]) {
        expect(await field.getAttribute('readonly')).not.toBeNull();
      }
      expect(await page.locator('input[name="current_password"]').count()).toBe(0);
      // Outside edit mode the location does not open the picker.
      await location.click();
      await page.waitForTimeout(300);
      expect(await page.getByRole('dialog').count()).toBe(0);

      // Update, change name and phone, Cancel: the stored values come back.
      await page.getByRole('button', { name: 'Modifier' }).click();
      await page.locator('input[name="current_password"]').waitFor();
      await page.locator('input[name="new_password"]').waitFor();
      expect(await fullName.getAttribute('readonly')).toBeNull();
      await fullName.fill('Nom provisoire');
      await page.locator('input[name="phone_number"][data-masked="true"]').waitFor();
      await phone.click();
      await phone.press('ControlOrMeta+a');
      await phone.press('Backspace');
      await phone.pressSequentially('661234567');
      await expect.poll(() => phone.inputValue()).toBe('0661234567');
      await page.getByRole('button', { name: 'Annuler' }).click();
      await page.locator('input[name="current_password"]').waitFor({ state: 'detached' });
      expect(await readOnlyValues()).toEqual(original);
      expect(await fullName.getAttribute('readonly')).not.toBeNull();

      // Update again, change the name, Confirm.
      await page.getByRole('button', { name: 'Modifier' }).click();
      await fullName.fill(renamed);
      const patched = page.waitForRequest((request) => request.method() === 'PATCH');
      await page.getByRole('button', { name: 'Confirmer' }).click();
      expect((await patched).postDataJSON()).toEqual({ full_name: renamed });
      await expectToast(page, 'success', 'Opération réussie');
      await page.locator('input[name="current_password"]').waitFor({ state: 'detached' });
      expect(await readOnlyValues()).toEqual({ ...original, full_name: renamed });
      await expect.poll(() => accountMenuButton(page).textContent()).toContain(renamed);
      await page.locator('main').getByText(renamed, { exact: true }).waitFor();

      // Change the password with the current one.
      await page.getByRole('button', { name: 'Modifier' }).click();
      await page.locator('input[name="current_password"]').fill(partner.password);
      await page.locator('input[name="new_password"]').fill(newPassword);
      await page.getByRole('button', { name: 'Confirmer' }).click();
      await page.locator('input[name="current_password"]').waitFor({ state: 'detached' });
      await expectToast(page, 'success', 'Opération réussie');

      await signOut(page, e2e.portal.url);
      await submitLogin(page, { email: partner.email, password: newPassword });
      await page.waitForURL(url('/'));
      await expect.poll(() => accountMenuButton(page).textContent()).toContain(renamed);
      watch.expectClean();
    } finally {
      await context.close();
    }
  });
});

/** French texts of the header and the tabs, which must all be gone in another language. */
const HEADER_AND_TABS_FR = ['partenaire', 'En ligne', 'Nouvelle saisie', 'Historique', 'Conseils'];

async function headerAndTabsText(page: Page): Promise<string> {
  const header = await page.locator('header').innerText();
  const tabs = await page.getByRole('tablist').innerText();
  return `${header}\n${tabs}`;
}

describe('journey 4: languages', () => {
  it('switches to Arabic (right to left, mirrored, remembered) and to English', async () => {
    const { context, page, watch } = await fresh();
    const missing: string[] = [];
    try {
      await signIn(page, e2e.portal.url, shared);
      expect(await page.getAttribute('html', 'lang')).toBe('fr');
      expect(await page.getAttribute('html', 'dir')).toBe('ltr');
      expect(await languageButton(page).textContent()).toContain('Français');

      await switchLanguage(page, 'ar');
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      expect(await languageButton(page).textContent()).toContain('العربية');
      const arTitle = translation('ar', FR.dashboardTitle);
      if (arTitle) await expect.poll(() => heading1(page).textContent()).toBe(arTitle);
      else missing.push(`ar: ${FR.dashboardTitle}`);
      const arTexts = HEADER_AND_TABS_FR.map((french) => translation('ar', french));
      if (arTexts.every(Boolean)) {
        const text = await headerAndTabsText(page);
        for (const french of HEADER_AND_TABS_FR) expect(text).not.toContain(french);
        for (const arabic of arTexts) expect(text).toContain(arabic);
      } else missing.push('ar: header and tabs');

      // Mirrored: the wordmark on the right half of the header, the account menu on the left, tabs from the right.
      const viewport = page.viewportSize()!;
      const brand = (await page.locator('header a[href="/"]').boundingBox())!;
      const account = (await accountMenuButton(page).boundingBox())!;
      expect(brand.x).toBeGreaterThan(viewport.width / 2);
      expect(account.x + account.width).toBeLessThan(viewport.width / 2);
      const tabs = page.getByRole('tab');
      const firstTab = (await tabs.first().boundingBox())!;
      const lastTab = (await tabs.last().boundingBox())!;
      expect(firstTab.x).toBeGreaterThan(lastTab.x);
      const title = (await heading1(page).boundingBox())!;
      expect(title.x + title.width).toBeGreaterThan(viewport.width / 2);

      // Remembered under partner-language: a reload stays in Arabic.
      expect(await page.evaluate(() => localStorage.getItem('partner-language'))).toBe('ar');
      await page.reload();
      await page.getByRole('tablist').waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe('ar');
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      if (arTitle) expect(await heading1(page).textContent()).toBe(arTitle);

      await switchLanguage(page, 'en');
      expect(await page.getAttribute('html', 'dir')).toBe('ltr');
      expect(await languageButton(page).textContent()).toContain('English');
      const enBrand = (await page.locator('header a[href="/"]').boundingBox())!;
      expect(enBrand.x).toBeLessThan(viewport.width / 2);
      const enTitle = translation('en', FR.dashboardTitle);
      if (enTitle) await expect.poll(() => heading1(page).textContent()).toBe(enTitle);
      else missing.push(`en: ${FR.dashboardTitle}`);
      const enTabs = ['Nouvelle saisie', 'Historique', 'Conseils'].map((french) => translation('en', french));
      if (enTabs.every(Boolean)) expect(await page.getByRole('tab').allInnerTexts()).toEqual(enTabs);
      else missing.push('en: tabs');

      if (missing.length > 0) {
        // Only the words are checked against the catalogs; direction, storage and layout are checked above.
        console.warn(`translations not written yet, French fallback accepted for: ${missing.join('; ')}`);
      }
      watch.expectClean();
    } finally {
      await context.close();
    }
  });
});

describe('journey 5: session gate and privacy conditions', () => {
  it('sends a signed-out visitor to /login and a signed-in partner away from the public pages', async () => {
    const { context, page, watch } = await fresh();
    try {
      for (const path of ['/', '/profile']) {
        await page.goto(url(path));
        await page.waitForURL(url('/login'));
        await expect.poll(() => heading1(page).textContent()).toBe(FR.loginTitle);
      }
      await signIn(page, e2e.portal.url, shared);
      for (const path of ['/login', '/register', '/forgot-password']) {
        await page.goto(url(path));
        await page.waitForURL(url('/'));
        await expect.poll(() => heading1(page).textContent()).toBe(FR.dashboardTitle);
      }
      watch.expectClean();
    } finally {
      await context.close();
    }
  });

  it('shows the privacy conditions, in French and in Arabic, signed out', async () => {
    const { context, page, watch } = await fresh();
    try {
      await open(page, e2e.portal.url, '/privacy-conditions');
      expect(page.url()).toBe(url('/privacy-conditions'));
      expect(await heading1(page).textContent()).toBe('Conditions de confidentialité');
      const conditions = page.locator('main h2').first();
      await expect
        .poll(() => conditions.textContent())
        .toBe('Conditions d’utilisation et politique de confidentialité du portail partenaire');
      expect(await page.locator('main h3').count()).toBeGreaterThanOrEqual(5);

      await switchLanguage(page, 'ar');
      await expect.poll(() => conditions.textContent()).toBe('شروط الاستخدام وسياسة الخصوصية لبوابة الشركاء');
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      watch.expectClean();
    } finally {
      await context.close();
    }
  });
});
