/**
 * Scale-out (issue 5): two API instances on one PostgreSQL database and one Redis, behind a
 * round-robin proxy, as in production (README "Several instances"): migrations run once by
 * `npm run db:migrate`, the instances start with MIGRATE_ON_START=false, the same token keys and
 * APP_URL (the proxy's address), TRUST_PROXY=1. The portal's journey in Chromium passes with
 * requests alternating between the instances; an idempotent repair sent to both at the same moment
 * is stored once; sign-in attempts are limited across both.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createPostgresDatabase, type PostgresDatabase } from '../../bench/lib/portal';
import { launchBrowser, newTabletContext } from './support/browser';
import { fillRegistration } from './support/pages';
import { PROJECT_ROOT } from './support/paths';
import { startRoundRobinProxy, type RoundRobinProxy } from './support/round-robin';
import { freePort, startPortal, type Portal } from './support/server';
import { startMapStubs, type MapStubs } from './support/stubs';
import { selectTab } from './support/tabs';

/** A Redis database index of its own (flushed before and after), so no other test's counters mix in. */
const REDIS_URL = process.env.SCALE_OUT_REDIS_URL ?? 'redis://127.0.0.1:6379/3';
/** The client's own address and one email: the tightest sign-in limit for a browser without a device cookie. */
const LOGIN_LIMIT_PER_ADDRESS_AND_EMAIL = 10;

let database: PostgresDatabase;
let redis: Redis;
let stubs: MapStubs;
let instances: Portal[] = [];
let proxy: RoundRobinProxy;
let browser: Browser;

const key = () => crypto.randomBytes(32).toString('base64url');

/** `npm run db:migrate` (server/cli/migrate.ts) once, against the shared database, demo data included. */
async function migrateOnce(databaseUrl: string): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'scale-out-migrate-'));
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join('server', 'cli', 'migrate.ts')], {
        cwd: PROJECT_ROOT,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATABASE_URL: databaseUrl,
          DATA_DIR: dataDir,
          NODE_ENV: 'development',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve(text) : reject(new Error(`db:migrate exited ${code}:\n${text}`)),
      );
    });
    expect(output).toContain('Migrations applied');
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  database = await createPostgresDatabase('scaleout');
  redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  await redis.flushdb();
  await migrateOnce(database.url);
  stubs = await startMapStubs();
  // The proxy's address is the portal's public one: every instance gets it as APP_URL (allowed origin).
  const proxyPort = await freePort();
  const shared = {
    DATABASE_URL: database.url,
    REDIS_URL,
    ACCESS_TOKEN_KEY: key(),
    RESET_TOKEN_KEY: key(),
    HANDOVER_KEY: key(),
    CERTIFICATE_KEY: key(),
    MIGRATE_ON_START: 'false',
    APP_URL: `http://127.0.0.1:${proxyPort}`,
    TRUST_PROXY: '1',
  };
  instances = await Promise.all(
    [0, 1].map(() => startPortal({ tileUrl: stubs.tileUrl, geocoderUrl: stubs.geocoderUrl, env: shared })),
  );
  proxy = await startRoundRobinProxy(
    instances.map((instance) => instance.url),
    proxyPort,
  );
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await Promise.all(instances.map((instance) => instance.stop()));
  await stubs?.close();
  await redis?.flushdb().catch(() => undefined);
  redis?.disconnect();
  await database?.drop();
});

/** Where the current test's requests start in the proxy's log (a retried test counts only its own). */
let testStart = 0;
beforeEach(() => {
  testStart = proxy.log().length;
});

function served(method: string, pathPrefix: string, status?: number) {
  return proxy
    .log()
    .slice(testStart)
    .filter(
      (entry) =>
        entry.method === method &&
        entry.url.startsWith(pathPrefix) &&
        (status === undefined || entry.status === status),
    );
}

async function dashboardShown(page: Page) {
  await page.getByRole('heading', { level: 1, name: 'Tableau de bord – Partenaire Garage' }).waitFor();
}

describe('two instances behind a round-robin proxy', () => {
  /** A new partner for each attempt (CI runs a failed test once more, and an email registers once). */
  const newPartner = () => {
    const unique = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
    return {
      full_name: `Garage Deux Instances ${unique}`,
      email: `scale-out-${unique}@garage.test`,
      password: `deux-instances-${unique}`,
    };
  };
  let partner = newPartner();
  let context: BrowserContext;
  let page: Page;

  it('both instances answer through the proxy, in turn', async () => {
    for (let i = 0; i < 4; i++) expect((await fetch(`${proxy.url}/api/public/settings`)).status).toBe(200);
    const upstreams = served('GET', '/api/public/settings').map((entry) => entry.upstream);
    // In turn from wherever the proxy stood: a first attempt may have left it on either instance.
    expect(upstreams).toEqual([0, 1, 0, 1].map((i) => (i + upstreams[0]!) % 2));
  });

  it('runs the journey: register, sign out, sign in on one, refresh on the other, record and see a repair', async () => {
    partner = newPartner();
    context = await newTabletContext(browser);
    page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    // Register through the form (the phone mask types the leading 0; the default location is kept).
    await page.goto(`${proxy.url}/register`);
    await fillRegistration(page, partner);
    await page.locator('label[data-scope="checkbox"]').locator('[data-part="control"]').click();
    await page.getByRole('button', { name: 'S’inscrire' }).click();
    await page.waitForURL(`${proxy.url}/`);
    await dashboardShown(page);
    expect(served('POST', '/api/auth/register/partner', 201)).toHaveLength(1);

    // Sign out (the account menu), then sign in again with "remember me".
    await page.locator('header button[aria-haspopup="menu"]').last().click();
    await page.locator('[role="menu"]:visible [role="menuitem"][data-value="logout"]').click();
    await page.waitForURL(`${proxy.url}/login`);
    await page.locator('input[name="email"]').fill(partner.email);
    await page.locator('input[name="password"]').fill(partner.password);
    await page.getByText('Se souvenir de moi').click();
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(`${proxy.url}/`);
    await dashboardShown(page);
    const [login] = served('POST', '/api/auth/login', 200);
    expect(login).toBeDefined();

    // Reload with the session's refresh sent to the other instance than the one that signed in: the
    // page's other requests vary in number from one build to the next, so counting turns would not do.
    const otherInstance = (login!.upstream + 1) % instances.length;
    proxy.routeNext('/api/auth/refresh', otherInstance);
    const refreshesBefore = served('POST', '/api/auth/refresh').length;
    await page.reload();
    await dashboardShown(page);
    // The proxy logs a request as it forwards it, and its status once the instance has answered.
    await expect.poll(() => served('POST', '/api/auth/refresh')[refreshesBefore]?.status ?? 0).not.toBe(0);
    const refresh = served('POST', '/api/auth/refresh')[refreshesBefore]!;
    expect(refresh, 'the refresh made on the other instance').toMatchObject({ upstream: otherInstance, status: 200 });

    // Look up a vehicle and record a repair.
    const form = page.getByRole('form', { name: 'Nouvelle saisie' });
    await form.getByRole('textbox', { name: 'Identifiant du véhicule (KODE ID)' }).fill('KODE000001');
    await form.getByRole('button', { name: 'Rechercher' }).click();
    await expect
      .poll(() => form.getByRole('textbox', { name: 'VIN', exact: true }).inputValue())
      .toBe('VF1S1CD16RB267735');
    const type = form.getByRole('combobox', { name: 'Type de panne' });
    await expect.poll(() => type.locator('option', { hasText: 'Vidange' }).count()).toBeGreaterThan(0);
    await type.selectOption({ label: 'Vidange' });
    await form.getByRole('textbox', { name: 'Kilométrage' }).fill('123456');
    await form.getByText('Je confirme que les informations saisies sont exactes').click();
    await form.getByRole('button', { name: 'Insérer' }).click();
    await page.getByText('La saisie a été enregistrée.').waitFor();
    expect(served('POST', '/api/partner/repairs', 201)).toHaveLength(1);

    // History, served by whichever instance: the repair is there, sent.
    await selectTab(page.getByRole('tab', { name: 'Historique' }));
    const row = page.locator('table tbody tr').first();
    await row.waitFor();
    expect(await row.getAttribute('data-status')).toBe('synced');
    expect(await row.innerText()).toContain('KODE000001');

    // Both instances took part in the journey, API calls included.
    const api = proxy
      .log()
      .slice(testStart)
      .filter((entry) => entry.url.startsWith('/api/'));
    expect(new Set(api.map((entry) => entry.upstream))).toEqual(new Set([0, 1]));
    expect(api.filter((entry) => entry.status >= 500)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('stores a repair sent to both instances at the same moment with one Idempotency-Key once', async () => {
    const session = await fetch(`${proxy.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-origin': proxy.url },
      body: JSON.stringify({ email: partner.email, password: partner.password, remember_me: false }),
    });
    const token = ((await session.json()) as { data: { access_token: string } }).data.access_token;
    const headers = { 'content-type': 'application/json', 'x-origin': proxy.url, authorization: `Bearer ${token}` };
    const partnerRepairs = async () => {
      const list = await fetch(`${instances[0]!.url}/api/partner/repairs?limit=100`, { headers });
      return ((await list.json()) as { data: { id: string; vehicle: { kode_id: string }; odometer: number }[] }).data;
    };
    // A retry finds its first attempt's repairs: only those stored since count.
    const earlier = new Set((await partnerRepairs()).map((repair) => repair.id));
    for (let i = 0; i < 5; i++) {
      const body = JSON.stringify({
        kode_id: 'KODE000002',
        repair_type_id: 'oil_change',
        odometer: 200_000 + i,
        note: '',
        consented: true,
        recorded_at: new Date(Date.now() - (i + 1) * 60_000).toISOString(),
      });
      const idempotencyKey = crypto.randomUUID();
      const answers = await Promise.all(
        instances.map((instance) =>
          fetch(`${instance.url}/api/partner/repairs`, {
            method: 'POST',
            headers: { ...headers, 'idempotency-key': idempotencyKey },
            body,
          }),
        ),
      );
      const records = (await Promise.all(answers.map((answer) => answer.json()))) as { data: { id: string } }[];
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);
      expect(records[0]!.data.id).toBe(records[1]!.data.id);
    }
    const sent = (await partnerRepairs()).filter(
      (repair) => !earlier.has(repair.id) && repair.vehicle.kode_id === 'KODE000002',
    );
    expect(sent.map((repair) => repair.odometer).sort()).toEqual([200_000, 200_001, 200_002, 200_003, 200_004]);
  });

  it('limits sign-in attempts across both instances: 10 per address and email, then 429 from either', async () => {
    const email = `nobody-${crypto.randomUUID()}@garage.test`;
    const before = proxy.log().length;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < LOGIN_LIMIT_PER_ADDRESS_AND_EMAIL + 2; attempt++) {
      const answer = await fetch(`${proxy.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-origin': proxy.url },
        body: JSON.stringify({ email, password: 'not-the-password', remember_me: false }),
      });
      statuses.push(answer.status);
    }
    // Only the sign-ins: a page of an earlier test may still be fetching through the proxy.
    const attempts = proxy
      .log()
      .slice(before)
      .filter((entry) => entry.method === 'POST' && entry.url.startsWith('/api/auth/login'));
    // Alternating: each instance saw half of the attempts, so neither alone reached its limit.
    expect(attempts.map((entry) => entry.upstream)).toEqual(
      [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1].map((i) => (i + attempts[0]!.upstream) % 2),
    );
    expect(statuses.slice(0, LOGIN_LIMIT_PER_ADDRESS_AND_EMAIL)).toEqual(
      Array(LOGIN_LIMIT_PER_ADDRESS_AND_EMAIL).fill(401),
    );
    expect(statuses.slice(LOGIN_LIMIT_PER_ADDRESS_AND_EMAIL)).toEqual([429, 429]);
    expect(new Set(attempts.slice(LOGIN_LIMIT_PER_ADDRESS_AND_EMAIL).map((entry) => entry.upstream))).toEqual(
      new Set([0, 1]),
    );
  });
});
