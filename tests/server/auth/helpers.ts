/** Shared pieces of the auth and profile tests: request bodies, cookies, envelopes, mails. */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { AuthSession, ErrorType, RegisterPayload } from '../../../contract';
import { sessions } from '../../../server/db/schema';
import { hashToken } from '../../../server/services/sessions';
import { call } from '../../support/test-app';

/** The test apps trust X-Forwarded-For (TRUST_PROXY), so each test can come from its own address. */
export const PROXY_ENV = { TRUST_PROXY: '1' };

let lastIp = 0;
export function uniqueIp(): string {
  lastIp += 1;
  return `10.${(lastIp >> 16) & 255}.${(lastIp >> 8) & 255}.${lastIp & 255}`;
}

export function uniqueEmail(prefix = 'garage'): string {
  return `${prefix}-${crypto.randomBytes(5).toString('hex')}@example.dz`;
}

export function registerBody(overrides: Partial<RegisterPayload> = {}): RegisterPayload {
  return {
    email: uniqueEmail(),
    full_name: 'Garage El Harrach',
    location: { latitude: 36.72, longitude: 3.14 },
    password: 'correct-horse-battery',
    phone_number: '0555123456',
    privacy_conditions: true,
    ...overrides,
  };
}

/** Registers through the API from a fresh address; returns the session and the refresh cookie. */
export async function register(app: FastifyInstance, overrides: Partial<RegisterPayload> = {}) {
  const body = registerBody(overrides);
  const res = await call(app, 'POST', '/api/auth/register/partner', {
    body,
    headers: { 'x-forwarded-for': uniqueIp() },
  });
  expect(res.statusCode).toBe(201);
  return { body, session: res.json<{ data: AuthSession }>().data, refresh: refreshCookie(res).value };
}

export async function login(
  app: FastifyInstance,
  email: string,
  password: string,
  options: {
    rememberMe?: boolean;
    ip?: string;
    headers?: Record<string, string>;
    cookies?: Record<string, string>;
  } = {},
) {
  return call(app, 'POST', '/api/auth/login', {
    body: { email, password, remember_me: options.rememberMe ?? false },
    headers: { 'x-forwarded-for': options.ip ?? uniqueIp(), ...options.headers },
    cookies: options.cookies,
  });
}

/** Signs `account` in through the API (200 expected): its refresh cookie's value and its access token. */
export async function signInTokens(
  app: FastifyInstance,
  account: { email: string; password: string },
  options: { rememberMe?: boolean } = {},
): Promise<{ refresh: string; access: string }> {
  const res = await login(app, account.email, account.password, { rememberMe: options.rememberMe ?? false });
  expect(res.statusCode).toBe(200);
  return { refresh: refreshCookie(res).value, access: res.json<{ data: AuthSession }>().data.access_token };
}

export interface SetCookie {
  name: string;
  value: string;
  path?: string;
  maxAge?: number;
  expires?: Date;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: string;
}

/** Wrong passwords for `email` from `addresses` new addresses, `each` from each: the statuses. */
export async function strangerGuesses(
  app: FastifyInstance,
  email: string,
  addresses: number,
  each: number,
): Promise<number[]> {
  const statuses: number[] = [];
  for (let address = 0; address < addresses; address += 1) {
    const ip = uniqueIp();
    for (let attempt = 0; attempt < each; attempt += 1) {
      statuses.push((await login(app, email, 'wrong-password', { ip })).statusCode);
    }
  }
  return statuses;
}

export function deviceCookie(res: LightMyRequestResponse): SetCookie {
  const cookie = (res.cookies as SetCookie[]).find((candidate) => candidate.name === 'login_device');
  if (!cookie) throw new Error(`no login_device cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return cookie;
}

export function refreshCookie(res: LightMyRequestResponse): SetCookie {
  const cookie = (res.cookies as SetCookie[]).find((candidate) => candidate.name === 'refresh_token');
  if (!cookie) throw new Error(`no refresh_token cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return cookie;
}

/** A cookie being cleared: empty value, in the past, on the same path so the browser drops the right one. */
export function expectClearedCookie(res: LightMyRequestResponse) {
  const cookie = refreshCookie(res);
  expect(cookie.value).toBe('');
  expect(cookie.path).toBe('/api/auth');
  expect(cookie.maxAge).toBe(0);
  expect(cookie.httpOnly).toBe(true);
}

export function expectError(res: LightMyRequestResponse, code: number, type: ErrorType, reason?: string) {
  expect(res.statusCode).toBe(code);
  const body = res.json() as { code: number; status: string; error: Record<string, unknown> };
  expect(body).toMatchObject({ code, status: 'error', error: { type } });
  expect(typeof body.error.message).toBe('string');
  expect(body).not.toHaveProperty('data');
  if (reason) expect(body.error.reason).toBe(reason);
  return body.error as { type: string; message: string; reason?: string; fields?: Record<string, string> };
}

export function expectRateLimited(res: LightMyRequestResponse, windowSeconds: number) {
  expectError(res, 429, 'rate_limited', 'rate_limited');
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

export function refresh(app: FastifyInstance, token: string | undefined, headers: Record<string, string> = {}) {
  return call(app, 'POST', '/api/auth/refresh', {
    headers,
    ...(token === undefined ? {} : { cookies: { refresh_token: token } }),
  });
}

/** Any partner route will do to tell whether an access token is still honoured. */
export async function accessWorks(app: FastifyInstance, accessToken: string): Promise<boolean> {
  const res = await call(app, 'GET', '/api/partner/repair-types', { token: accessToken });
  if (res.statusCode !== 200 && res.statusCode !== 401) throw new Error(`unexpected ${res.statusCode}`);
  return res.statusCode === 200;
}

export async function sessionRow(app: FastifyInstance, refreshToken: string) {
  const [row] = await app.db
    .select()
    .from(sessions)
    .where(eq(sessions.token_hash, hashToken(refreshToken)));
  return row;
}

/** Quoted-printable soft line breaks and escapes undone, so a long link reads as one line. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, (bytes) => Buffer.from(bytes.replace(/=/g, ''), 'hex').toString('utf8'));
}

export async function mailFiles(dataDir: string): Promise<string[]> {
  const dir = path.join(dataDir, 'mail');
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const files = await Promise.all(
    names.filter((name) => name.endsWith('.eml')).map((name) => fs.readFile(path.join(dir, name), 'utf8')),
  );
  return files.map(decodeQuotedPrintable);
}

/** The mail is sent after the answer, so the test waits for it to appear. */
export async function waitForMailTo(dataDir: string, email: string, count = 1): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = (await mailFiles(dataDir)).filter((mail) => mail.includes(`To: ${email}`));
    if (mails.length >= count) return mails;
    if (Date.now() > deadline) throw new Error(`no mail to ${email} after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function resetTokenIn(mail: string, appUrl: string): string {
  const prefix = `${appUrl}/reset-password?token=`;
  const start = mail.indexOf(prefix);
  if (start < 0) throw new Error('no reset link in the mail');
  const match = /^[A-Za-z0-9._%-]+/.exec(mail.slice(start + prefix.length));
  if (!match) throw new Error('empty reset token');
  return decodeURIComponent(match[0]);
}
