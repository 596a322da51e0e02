/**
 * The environment the server reads (README.md#configuration): every variable's default, the values it
 * takes, and the one-line message naming the variable that a bad value stops the server with.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../server/config';

type Env = Record<string, string | undefined>;

const KEY = Buffer.alloc(32, 7).toString('base64url');
const OTHER_KEY = Buffer.alloc(32, 8).toString('base64url');
const THIRD_KEY = Buffer.alloc(32, 3).toString('base64url');
const FOURTH_KEY = Buffer.alloc(32, 4).toString('base64url');
const PRODUCTION: Env = {
  NODE_ENV: 'production',
  ACCESS_TOKEN_KEY: KEY,
  RESET_TOKEN_KEY: OTHER_KEY,
  HANDOVER_KEY: THIRD_KEY,
  CERTIFICATE_KEY: FOURTH_KEY,
};
const TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const TILE_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

const load = (env: Env): Config => loadConfig({ NODE_ENV: 'test', ...env });

/** The error loading `env` stops with: a ConfigError on one line. */
function errorOf(env: Env): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const { message, name } = error as ConfigError;
    expect(name).toBe('ConfigError');
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`loadConfig(${JSON.stringify(env)}) did not throw`);
}

describe('loadConfig', () => {
  it('has a default for every variable', () => {
    expect(loadConfig({ NODE_ENV: 'test' })).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      appUrl: 'http://localhost:8080',
      allowedOrigins: ['http://localhost:8080'],
      smtpUrl: null,
      redisUrl: null,
      nodeEnv: 'test',
      demo: true,
      accessTokenKey: null,
      resetTokenKey: null,
      handoverKey: null,
      certificateKey: null,
      trustProxy: false,
      migrateOnStart: true,
      logLevel: 'silent',
      tileUrl: TILE_URL,
      tileAttribution: TILE_ATTRIBUTION,
      geocoderUrl: 'https://photon.komoot.io/api',
      geocoderKind: 'photon',
      distDir: null,
    } satisfies Config);
  });

  describe('NODE_ENV', () => {
    it('is development when unset, with info logs', () => {
      const config = loadConfig({});
      expect(config.nodeEnv).toBe('development');
      expect(config.logLevel).toBe('info');
      expect(config.demo).toBe(true);
    });

    it.each(['development', 'production', 'test'] as const)('takes %s', (nodeEnv) => {
      expect(loadConfig({ ...PRODUCTION, NODE_ENV: nodeEnv }).nodeEnv).toBe(nodeEnv);
    });

    it.each(['prod', '', 'Production'])('refuses %j', (value) => {
      expect(errorOf({ NODE_ENV: value })).toBe(`NODE_ENV must be development, production or test, got "${value}"`);
    });

    it('is checked before any other variable', () => {
      expect(errorOf({ NODE_ENV: 'x', PORT: 'x', TILE_URL: 'x' })).toMatch(/^NODE_ENV /);
    });
  });

  describe('PORT', () => {
    it('is 8080 when unset or empty', () => {
      expect(load({}).port).toBe(8080);
      expect(load({ PORT: '' }).port).toBe(8080);
    });

    it.each([
      ['0', 0],
      ['80', 80],
      ['65535', 65535],
      [' 3000 ', 3000],
    ])('takes %j', (value, port) => {
      expect(load({ PORT: value }).port).toBe(port);
    });

    it.each(['http', '-1', '65536', '80.5', '1e9', 'NaN'])('refuses %j', (value) => {
      expect(errorOf({ NODE_ENV: 'test', PORT: value })).toBe(
        `PORT must be a whole number from 0 to 65535, got "${value}"`,
      );
    });
  });

  describe('HOST, DATA_DIR, LOG_LEVEL and TILE_ATTRIBUTION', () => {
    it('are taken as written', () => {
      const config = load({ HOST: '127.0.0.1', LOG_LEVEL: 'debug', TILE_ATTRIBUTION: 'Tiles by me' });
      expect(config.host).toBe('127.0.0.1');
      expect(config.logLevel).toBe('debug');
      expect(config.tileAttribution).toBe('Tiles by me');
    });

    it('keep an empty value (only unset takes the default)', () => {
      const config = load({ HOST: '', LOG_LEVEL: '', TILE_ATTRIBUTION: '', DATA_DIR: '' });
      expect(config.host).toBe('');
      expect(config.logLevel).toBe('');
      expect(config.tileAttribution).toBe('');
      expect(config.dataDir).toBe(process.cwd());
    });

    it('resolve DATA_DIR to an absolute path', () => {
      expect(load({ DATA_DIR: 'some/where' }).dataDir).toBe(path.resolve('some/where'));
      expect(load({ DATA_DIR: '/srv/portal' }).dataDir).toBe('/srv/portal');
    });

    it('log at info by default outside tests', () => {
      expect(loadConfig({ ...PRODUCTION }).logLevel).toBe('info');
      expect(loadConfig({ NODE_ENV: 'development' }).logLevel).toBe('info');
    });
  });

  describe('APP_URL and ALLOWED_ORIGINS', () => {
    it('defaults APP_URL to localhost on PORT', () => {
      const config = load({ PORT: '3000' });
      expect(config.appUrl).toBe('http://localhost:3000');
      expect(config.allowedOrigins).toEqual(['http://localhost:3000']);
    });

    it('drops one trailing slash from APP_URL and allows its origin', () => {
      const config = load({ APP_URL: 'https://portal.example/app/' });
      expect(config.appUrl).toBe('https://portal.example/app');
      expect(config.allowedOrigins).toEqual(['https://portal.example']);
      expect(load({ APP_URL: '' }).appUrl).toBe('http://localhost:8080');
    });

    it('adds the origins of ALLOWED_ORIGINS, comma-separated, blanks skipped', () => {
      const config = load({
        APP_URL: 'https://portal.example',
        ALLOWED_ORIGINS: ' https://a.example/path , ,http://b.example:8081,',
      });
      expect(config.allowedOrigins).toEqual(['https://portal.example', 'https://a.example', 'http://b.example:8081']);
      expect(load({ ALLOWED_ORIGINS: '' }).allowedOrigins).toEqual(['http://localhost:8080']);
    });

    it.each([
      [{ APP_URL: 'portal.example' }, 'APP_URL must be a URL (http: or https:), got "portal.example"'],
      [{ APP_URL: 'ftp://portal.example' }, 'APP_URL must start with http: or https:, got "ftp:"'],
      [
        { ALLOWED_ORIGINS: 'https://a.example, b.example' },
        'ALLOWED_ORIGINS must be a URL (http: or https:), got "b.example"',
      ],
      [{ ALLOWED_ORIGINS: 'ws://a.example' }, 'ALLOWED_ORIGINS must start with http: or https:, got "ws:"'],
    ])('refuses %j', (env, message) => {
      expect(errorOf({ NODE_ENV: 'test', ...env })).toBe(message);
    });
  });

  describe('DATABASE_URL, SMTP_URL, REDIS_URL and GEOCODER_URL', () => {
    it('are unset (or the public geocoder) when unset or empty', () => {
      for (const value of [undefined, '']) {
        const config = load({ DATABASE_URL: value, SMTP_URL: value, REDIS_URL: value, GEOCODER_URL: value });
        expect(config.databaseUrl).toBeNull();
        expect(config.smtpUrl).toBeNull();
        expect(config.redisUrl).toBeNull();
        expect(config.geocoderUrl).toBe('https://photon.komoot.io/api');
      }
    });

    it.each([
      ['DATABASE_URL', 'databaseUrl', 'postgres://portal:secret@db.example:5432/portal'],
      ['DATABASE_URL', 'databaseUrl', 'postgresql://db.example/portal'],
      ['SMTP_URL', 'smtpUrl', 'smtp://user:pass@mail.example:587'],
      ['SMTP_URL', 'smtpUrl', 'smtps://mail.example'],
      ['REDIS_URL', 'redisUrl', 'redis://redis.example:6379'],
      ['REDIS_URL', 'redisUrl', 'rediss://redis.example'],
      ['GEOCODER_URL', 'geocoderUrl', 'https://nominatim.example/search'],
      ['GEOCODER_URL', 'geocoderUrl', 'http://localhost:2322/api/'],
    ] as const)('%s takes %s', (name, key, value) => {
      expect(load({ [name]: value })[key]).toBe(value);
    });

    it.each([
      ['DATABASE_URL', 'not a url', 'DATABASE_URL must be a URL (postgres: or postgresql:), got "not a url"'],
      [
        'DATABASE_URL',
        'mysql://db.example/portal',
        'DATABASE_URL must start with postgres: or postgresql:, got "mysql:"',
      ],
      ['SMTP_URL', 'mail.example', 'SMTP_URL must be a URL (smtp: or smtps:), got "mail.example"'],
      ['SMTP_URL', 'http://mail.example', 'SMTP_URL must start with smtp: or smtps:, got "http:"'],
      ['REDIS_URL', 'localhost:6379', 'REDIS_URL must start with redis: or rediss:, got "localhost:"'],
      ['REDIS_URL', '//redis', 'REDIS_URL must be a URL (redis: or rediss:), got "//redis"'],
      ['GEOCODER_URL', 'photon', 'GEOCODER_URL must be a URL (http: or https:), got "photon"'],
      ['GEOCODER_URL', 'file:///api', 'GEOCODER_URL must start with http: or https:, got "file:"'],
    ])('%s refuses %j', (name, value, message) => {
      expect(errorOf({ NODE_ENV: 'test', [name]: value })).toBe(message);
    });
  });

  describe('DEMO and MIGRATE_ON_START', () => {
    it.each([
      ['DEMO', 'demo'],
      ['MIGRATE_ON_START', 'migrateOnStart'],
    ] as const)('%s is true when unset and takes true or false', (name, key) => {
      expect(load({})[key]).toBe(true);
      expect(load({ [name]: '' })[key]).toBe(true);
      for (const value of ['1', 'true', 'yes', 'TRUE', 'Yes']) expect(load({ [name]: value })[key]).toBe(true);
      for (const value of ['0', 'false', 'no', 'FALSE', 'No']) expect(load({ [name]: value })[key]).toBe(false);
    });

    it.each(['DEMO', 'MIGRATE_ON_START'])('%s refuses anything else', (name) => {
      for (const value of ['maybe', 'on', ' true', '2']) {
        expect(errorOf({ NODE_ENV: 'test', [name]: value })).toBe(`${name} must be true or false, got "${value}"`);
      }
    });

    it('has no demo in production, whatever DEMO says (and does not read it)', () => {
      expect(loadConfig({ ...PRODUCTION }).demo).toBe(false);
      expect(loadConfig({ ...PRODUCTION, DEMO: 'true' }).demo).toBe(false);
      expect(loadConfig({ ...PRODUCTION, DEMO: 'maybe' }).demo).toBe(false);
    });

    it('reads MIGRATE_ON_START in production', () => {
      expect(loadConfig({ ...PRODUCTION, MIGRATE_ON_START: 'false' }).migrateOnStart).toBe(false);
      expect(errorOf({ ...PRODUCTION, MIGRATE_ON_START: 'x' })).toBe('MIGRATE_ON_START must be true or false, got "x"');
    });
  });

  describe('ACCESS_TOKEN_KEY, RESET_TOKEN_KEY, HANDOVER_KEY and CERTIFICATE_KEY', () => {
    const keys = [
      ['ACCESS_TOKEN_KEY', 'accessTokenKey'],
      ['RESET_TOKEN_KEY', 'resetTokenKey'],
      ['HANDOVER_KEY', 'handoverKey'],
      ['CERTIFICATE_KEY', 'certificateKey'],
    ] as const;

    it.each(keys)('%s is unset by default outside production and takes 32 bytes in base64url', (name, key) => {
      expect(load({})[key]).toBeNull();
      expect(load({ [name]: '' })[key]).toBeNull();
      expect(load({ [name]: KEY })[key]).toBe(KEY);
      expect(load({ [name]: OTHER_KEY })[key]).toBe(OTHER_KEY);
    });

    it.each(keys)('%s refuses anything but 32 bytes', (name) => {
      for (const value of ['short', KEY.slice(0, 42), `${KEY}AAAA`, Buffer.alloc(31).toString('base64url')]) {
        expect(errorOf({ NODE_ENV: 'test', [name]: value })).toBe(
          `${name} must be 32 bytes in base64url (43 characters)`,
        );
      }
    });

    it('names every key missing in production in one line', () => {
      expect(errorOf({ NODE_ENV: 'production' })).toBe(
        'ACCESS_TOKEN_KEY, RESET_TOKEN_KEY, HANDOVER_KEY and CERTIFICATE_KEY are required when NODE_ENV=production',
      );
      expect(errorOf({ ...PRODUCTION, ACCESS_TOKEN_KEY: undefined, HANDOVER_KEY: '' })).toBe(
        'ACCESS_TOKEN_KEY and HANDOVER_KEY are required when NODE_ENV=production',
      );
      expect(errorOf({ ...PRODUCTION, RESET_TOKEN_KEY: '' })).toBe(
        'RESET_TOKEN_KEY is required when NODE_ENV=production',
      );
      expect(errorOf({ ...PRODUCTION, CERTIFICATE_KEY: undefined })).toBe(
        'CERTIFICATE_KEY is required when NODE_ENV=production',
      );
      expect(loadConfig({ ...PRODUCTION })).toMatchObject({
        nodeEnv: 'production',
        accessTokenKey: KEY,
        resetTokenKey: OTHER_KEY,
        handoverKey: THIRD_KEY,
        certificateKey: FOURTH_KEY,
      });
    });

    it('refuses the same value for two keys, in production or not', () => {
      expect(errorOf({ ...PRODUCTION, HANDOVER_KEY: KEY })).toBe(
        'ACCESS_TOKEN_KEY and HANDOVER_KEY have the same value: each key must be its own 32 random bytes',
      );
      expect(errorOf({ NODE_ENV: 'test', ACCESS_TOKEN_KEY: KEY, RESET_TOKEN_KEY: KEY, HANDOVER_KEY: KEY })).toBe(
        'ACCESS_TOKEN_KEY, RESET_TOKEN_KEY and HANDOVER_KEY have the same value: each key must be its own 32 random bytes',
      );
      expect(errorOf({ NODE_ENV: 'test', RESET_TOKEN_KEY: OTHER_KEY, HANDOVER_KEY: OTHER_KEY })).toBe(
        'RESET_TOKEN_KEY and HANDOVER_KEY have the same value: each key must be its own 32 random bytes',
      );
      expect(errorOf({ ...PRODUCTION, CERTIFICATE_KEY: THIRD_KEY })).toBe(
        'HANDOVER_KEY and CERTIFICATE_KEY have the same value: each key must be its own 32 random bytes',
      );
    });

    it('checks a key that is set before saying one is missing in production', () => {
      expect(errorOf({ NODE_ENV: 'production', HANDOVER_KEY: 'short' })).toBe(
        'HANDOVER_KEY must be 32 bytes in base64url (43 characters)',
      );
    });
  });

  describe('TRUST_PROXY', () => {
    it.each([
      [undefined, false],
      ['', false],
      [' ', false],
      ['0', false],
      ['false', false],
      ['NO', false],
      ['1', 1],
      [' 2 ', 2],
      ['10.0.0.5', ['10.0.0.5']],
      [
        '10.0.0.0/8, ::1 ,fd00::/8,loopback,linklocal,uniquelocal',
        ['10.0.0.0/8', '::1', 'fd00::/8', 'loopback', 'linklocal', 'uniquelocal'],
      ],
    ] as const)('takes %j', (value, trustProxy) => {
      expect(load({ TRUST_PROXY: value }).trustProxy).toEqual(trustProxy);
    });

    it.each(['true', 'TRUE', 'yes', ' Yes '])('refuses %j and says what to write', (value) => {
      expect(errorOf({ NODE_ENV: 'test', TRUST_PROXY: value })).toBe(
        'TRUST_PROXY=true would believe any address a client writes in X-Forwarded-For: set the number of proxies in front of the portal (TRUST_PROXY=1 for one) or their addresses (TRUST_PROXY=10.0.0.5 or 10.0.0.0/8, comma-separated)',
      );
    });

    it.each([
      '10.0.0.300',
      '10.0.0.0/33',
      '::1/129',
      '10.0.0.0/8/1',
      '10.0.0.0/x',
      'proxy.example',
      '-1',
      '1.5',
      '10.0.0.1,,x',
    ])('refuses %j', (value) => {
      expect(errorOf({ NODE_ENV: 'test', TRUST_PROXY: value })).toBe(
        `TRUST_PROXY must be a number of proxies (1, 2…) or their addresses or networks (10.0.0.5, 10.0.0.0/8, loopback; comma-separated), got "${value}"`,
      );
    });
  });

  describe('TILE_URL', () => {
    it('takes a template with {z}, {x} and {y}', () => {
      expect(load({ TILE_URL: 'https://tiles.example/{z}/{y}/{x}.webp' }).tileUrl).toBe(
        'https://tiles.example/{z}/{y}/{x}.webp',
      );
    });

    it.each(['https://tiles.example/{z}/{x}.png', '', 'tiles'])('refuses %j', (value) => {
      expect(errorOf({ NODE_ENV: 'test', TILE_URL: value })).toBe(
        `TILE_URL must contain {z}, {x} and {y}, got "${value}"`,
      );
    });

    it('is checked after every single variable, before the production requirements', () => {
      expect(errorOf({ NODE_ENV: 'test', TILE_URL: 'x', GEOCODER_KIND: 'x' })).toMatch(/^GEOCODER_KIND /);
      expect(errorOf({ NODE_ENV: 'production', TILE_URL: 'x' })).toMatch(/^TILE_URL /);
    });
  });

  describe('GEOCODER_KIND', () => {
    it.each([
      [undefined, 'photon'],
      ['', 'photon'],
      ['photon', 'photon'],
      ['nominatim', 'nominatim'],
    ] as const)('takes %j', (value, kind) => {
      expect(load({ GEOCODER_KIND: value }).geocoderKind).toBe(kind);
    });

    it.each(['google', 'Photon', ' nominatim'])('refuses %j', (value) => {
      expect(errorOf({ NODE_ENV: 'test', GEOCODER_KIND: value })).toBe(
        `GEOCODER_KIND must be photon or nominatim, got "${value}"`,
      );
    });
  });

  describe('DIST_DIR', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-config-'));
      await fs.writeFile(path.join(dir, 'index.html'), '<!doctype html>');
    });
    afterAll(() => fs.rm(dir, { recursive: true, force: true }));

    it('takes a folder holding index.html, resolved', () => {
      expect(load({ DIST_DIR: dir }).distDir).toBe(dir);
      expect(load({ DIST_DIR: path.relative(process.cwd(), dir) }).distDir).toBe(dir);
      expect(load({ DIST_DIR: '' }).distDir).toBeNull();
    });

    it.each(['/nonexistent/dist', os.tmpdir()])('refuses %j', (value) => {
      expect(errorOf({ NODE_ENV: 'test', DIST_DIR: value })).toBe(
        `DIST_DIR must be a folder holding the built PWA (index.html), got "${value}"`,
      );
    });
  });

  it('reports the first bad variable in the order the server reads them', () => {
    const bad: Env = {
      NODE_ENV: 'test',
      PORT: 'x',
      APP_URL: 'x',
      ALLOWED_ORIGINS: 'x',
      DATABASE_URL: 'x',
      SMTP_URL: 'x',
      REDIS_URL: 'x',
      DEMO: 'x',
      ACCESS_TOKEN_KEY: 'x',
      RESET_TOKEN_KEY: 'x',
      HANDOVER_KEY: 'x',
      CERTIFICATE_KEY: 'x',
      TRUST_PROXY: 'x',
      MIGRATE_ON_START: 'x',
      GEOCODER_URL: 'x',
      GEOCODER_KIND: 'x',
      DIST_DIR: '/nonexistent/dist',
      TILE_URL: 'x',
    };
    const order: string[] = [];
    for (const name of Object.keys(bad).slice(1)) {
      order.push(errorOf(bad).split(/[ =]/)[0] ?? '');
      delete bad[name];
    }
    expect(order).toEqual([
      'PORT',
      'APP_URL',
      'ALLOWED_ORIGINS',
      'DATABASE_URL',
      'SMTP_URL',
      'REDIS_URL',
      'DEMO',
      'ACCESS_TOKEN_KEY',
      'RESET_TOKEN_KEY',
      'HANDOVER_KEY',
      'CERTIFICATE_KEY',
      'TRUST_PROXY',
      'MIGRATE_ON_START',
      'GEOCODER_URL',
      'GEOCODER_KIND',
      'DIST_DIR',
      'TILE_URL',
    ]);
  });
});
