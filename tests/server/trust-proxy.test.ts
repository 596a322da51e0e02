/**
 * TRUST_PROXY names which proxies are believed: a number of hops or their addresses. A client
 * writes whatever it likes at the start of X-Forwarded-For; only the entries our own proxies
 * appended count, so a spoofed first entry cannot move a client out of its per-address limits.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { call, createTestApp, type TestApp } from '../support/test-app';
import { expectRateLimited, registerBody, uniqueEmail } from './auth/helpers';

const REGISTER_LIMIT_PER_ADDRESS = 5;
const LOGIN_LIMIT_PER_ADDRESS = 50;

const spoofed = () => `${crypto.randomInt(1, 223)}.${crypto.randomInt(256)}.${crypto.randomInt(256)}.7`;

describe('TRUST_PROXY', () => {
  describe('parsing', () => {
    const parse = (value: string) => loadConfig({ NODE_ENV: 'test', TRUST_PROXY: value }).trustProxy;

    it('trusts no proxy by default', () => {
      expect(loadConfig({ NODE_ENV: 'test' }).trustProxy).toBe(false);
      expect(parse('')).toBe(false);
      expect(parse('false')).toBe(false);
      expect(parse('0')).toBe(false);
    });

    it('takes a number of proxies in front of the portal', () => {
      expect(parse('1')).toBe(1);
      expect(parse('2')).toBe(2);
    });

    it('takes proxy addresses and networks, comma-separated', () => {
      expect(parse('10.0.0.5')).toEqual(['10.0.0.5']);
      expect(parse('10.0.0.0/8, 192.168.1.20 ,fd00::/8,loopback')).toEqual([
        '10.0.0.0/8',
        '192.168.1.20',
        'fd00::/8',
        'loopback',
      ]);
    });

    it('refuses true, which would believe every address a client writes, and says what to write', () => {
      expect(() => parse('true')).toThrow(ConfigError);
      expect(() => parse('true')).toThrow(/TRUST_PROXY=1/);
      expect(() => parse('yes')).toThrow(ConfigError);
    });

    it.each(['10.0.0.300', '10.0.0.0/33', 'proxy.example', '-1', '1.5', '10.0.0.1,,x'])('refuses %j', (value) => {
      expect(() => parse(value)).toThrow(/^TRUST_PROXY must be/);
    });
  });

  describe('behind one proxy (TRUST_PROXY=1)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { TRUST_PROXY: '1' } });
    });
    afterAll(() => t.close());

    it('counts registrations on the address the proxy saw, whatever the client put first', async () => {
      const client = '203.0.113.7';
      const register = () =>
        call(t.app, 'POST', '/api/auth/register/partner', {
          body: registerBody(),
          headers: { 'x-forwarded-for': `${spoofed()}, ${client}` },
        });
      for (let attempt = 0; attempt < REGISTER_LIMIT_PER_ADDRESS; attempt += 1) {
        expect((await register()).statusCode).toBe(201);
      }
      expectRateLimited(await register(), 3600);
    });

    it('counts sign-in attempts on the address the proxy saw, whatever the client put first', async () => {
      const client = '203.0.113.8';
      const login = () =>
        call(t.app, 'POST', '/api/auth/login', {
          body: { email: uniqueEmail('spray'), password: 'wrong-password', remember_me: false },
          headers: { 'x-forwarded-for': `${spoofed()}, ${client}` },
        });
      for (let attempt = 0; attempt < LOGIN_LIMIT_PER_ADDRESS; attempt += 1) {
        expect((await login()).statusCode).toBe(401);
      }
      expectRateLimited(await login(), 15 * 60);
    });
  });

  describe('behind named proxies (TRUST_PROXY=10.0.0.0/8)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { TRUST_PROXY: '10.0.0.0/8' } });
    });
    afterAll(() => t.close());

    const register = (remoteAddress: string, forwardedFor: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/register/partner',
        remoteAddress,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
        payload: JSON.stringify(registerBody()),
      });

    it('believes the entry appended by a trusted proxy, not the ones before it', async () => {
      for (let attempt = 0; attempt < REGISTER_LIMIT_PER_ADDRESS; attempt += 1) {
        expect((await register('10.1.2.3', `${spoofed()}, 198.51.100.7`)).statusCode).toBe(201);
      }
      expectRateLimited(await register('10.1.2.4', `${spoofed()}, 198.51.100.7`), 3600);
    });

    it('ignores X-Forwarded-For from an address that is not a trusted proxy', async () => {
      for (let attempt = 0; attempt < REGISTER_LIMIT_PER_ADDRESS; attempt += 1) {
        expect((await register('198.51.100.20', spoofed())).statusCode).toBe(201);
      }
      expectRateLimited(await register('198.51.100.20', spoofed()), 3600);
    });
  });
});
