/**
 * Configuration from the environment, validated once at start (README.md#configuration).
 * A bad value stops the server with a message that names the variable and what it expects.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import * as z from 'zod/mini';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  appUrl: string;
  allowedOrigins: string[];
  smtpUrl: string | null;
  redisUrl: string | null;
  nodeEnv: 'development' | 'production' | 'test';
  /** Demo mode seeds a demo partner; never in production. */
  demo: boolean;
  /** PASERK-free raw keys: base64url of 32 bytes; generated into dataDir when unset outside production. */
  accessTokenKey: string | null;
  resetTokenKey: string | null;
  /** The secret each partner's hand-over key is derived from (docs/ARCHITECTURE.md#the-hand-over-file). */
  handoverKey: string | null;
  /**
   * The Ed25519 private key that signs mileage certificates: its 32-byte seed (RFC 8032) in base64url
   * (docs/API.md#mileage-certificates). A new one signs the certificates issued from then on; the public keys
   * of the earlier ones stay published, so what they signed still verifies.
   */
  certificateKey: string | null;
  /**
   * Which proxies' X-Forwarded-For entries are believed: none (false), the nearest N hops, or the
   * proxies at these addresses or networks. Handed to Fastify's trustProxy as is.
   */
  trustProxy: false | number | string[];
  /** Run migrations when the server starts (off when a separate `npm run db:migrate` step does it). */
  migrateOnStart: boolean;
  logLevel: string;
  /** Map tiles and geocoder, handed to the PWA at run time so an operator can switch provider without a release. */
  tileUrl: string;
  tileAttribution: string;
  geocoderUrl: string;
  geocoderKind: 'photon' | 'nominatim';
  /** The built PWA to serve; null means dist/ beside server/ (what `npm run build` writes). */
  distDir: string | null;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

type Context = z.core.ParsePayload;

/** Stops the parse with the one-line message the server prints (each issue's message is a whole one). */
function refuse(ctx: Context, message: string): never {
  ctx.issues.push({ code: 'custom', message, input: ctx.value });
  return z.NEVER;
}

/** A variable that takes `fallback` when unset or empty, else what `parse` makes of its text. */
function variable<T>(fallback: T, parse: (value: string, ctx: Context) => T) {
  return z.pipe(
    z.optional(z.string()),
    z.transform((value: string | undefined, ctx) =>
      value === undefined || value === '' ? fallback : parse(value, ctx),
    ),
  );
}

/** A variable taken as written, `fallback` only when unset (an empty value stays empty). */
const text = (fallback: string) => z._default(z.string(), fallback);

function checkUrl(ctx: Context, name: string, value: string, protocols: string[]): string {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url) return refuse(ctx, `${name} must be a URL (${protocols.join(' or ')}), got "${value}"`);
  if (!protocols.includes(url.protocol)) {
    return refuse(ctx, `${name} must start with ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return value;
}

const url = (name: string, protocols: string[]) =>
  variable<string | null>(null, (value, ctx) => checkUrl(ctx, name, value, protocols));

const flag = (name: string) =>
  variable(true, (value, ctx) => {
    if (['1', 'true', 'yes'].includes(value.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(value.toLowerCase())) return false;
    return refuse(ctx, `${name} must be true or false, got "${value}"`);
  });

const key = (name: string) =>
  variable<string | null>(null, (value, ctx) =>
    Buffer.from(value, 'base64url').length === 32
      ? value
      : refuse(ctx, `${name} must be 32 bytes in base64url (43 characters)`),
  );

/** The names proxy-addr (behind Fastify's trustProxy) knows for the usual private ranges. */
const TRUST_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrNetwork(entry: string): boolean {
  if (TRUST_PROXY_RANGES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/**
 * The client's own address is the last X-Forwarded-For entry a trusted proxy appended; everything
 * before it was written by the client. So "trust the header" (true) is refused: it would let a
 * client pick the address its rate limits are counted on.
 */
const trustProxy = z.pipe(
  z._default(z.string(), ''),
  z.transform((value: string, ctx): Config['trustProxy'] => {
    const text = value.trim();
    if (['', '0', 'false', 'no'].includes(text.toLowerCase())) return false;
    if (['true', 'yes'].includes(text.toLowerCase())) {
      return refuse(
        ctx,
        'TRUST_PROXY=true would believe any address a client writes in X-Forwarded-For: set the number of proxies in front of the portal (TRUST_PROXY=1 for one) or their addresses (TRUST_PROXY=10.0.0.5 or 10.0.0.0/8, comma-separated)',
      );
    }
    if (/^\d+$/.test(text)) return Number(text);
    const entries = text.split(',').map((entry) => entry.trim());
    if (entries.every(isAddressOrNetwork)) return entries;
    return refuse(
      ctx,
      `TRUST_PROXY must be a number of proxies (1, 2…) or their addresses or networks (10.0.0.5, 10.0.0.0/8, loopback; comma-separated), got "${value}"`,
    );
  }),
);

/** The environment, in the order its variables are checked: the first bad one is the one reported. */
const environment = z.object({
  NODE_ENV: z._default(
    z.enum(['development', 'production', 'test'], {
      error: (issue) => `NODE_ENV must be development, production or test, got "${String(issue.input)}"`,
    }),
    'development',
  ),
  PORT: variable(8080, (value, ctx) => {
    const port = Number(value);
    if (Number.isInteger(port) && port >= 0 && port <= 65535) return port;
    return refuse(ctx, `PORT must be a whole number from 0 to 65535, got "${value}"`);
  }),
  APP_URL: url('APP_URL', ['http:', 'https:']),
  ALLOWED_ORIGINS: z.pipe(
    z._default(z.string(), ''),
    z.transform((value: string, ctx) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean)
        .map((origin) => checkUrl(ctx, 'ALLOWED_ORIGINS', origin, ['http:', 'https:'])),
    ),
  ),
  HOST: text('0.0.0.0'),
  DATA_DIR: z.pipe(
    text('./data'),
    z.transform((value: string) => path.resolve(value)),
  ),
  DATABASE_URL: url('DATABASE_URL', ['postgres:', 'postgresql:']),
  SMTP_URL: url('SMTP_URL', ['smtp:', 'smtps:']),
  REDIS_URL: url('REDIS_URL', ['redis:', 'rediss:']),
  DEMO: flag('DEMO'),
  ACCESS_TOKEN_KEY: key('ACCESS_TOKEN_KEY'),
  RESET_TOKEN_KEY: key('RESET_TOKEN_KEY'),
  HANDOVER_KEY: key('HANDOVER_KEY'),
  CERTIFICATE_KEY: key('CERTIFICATE_KEY'),
  TRUST_PROXY: trustProxy,
  MIGRATE_ON_START: flag('MIGRATE_ON_START'),
  LOG_LEVEL: z.optional(z.string()),
  TILE_ATTRIBUTION: text('&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'),
  GEOCODER_URL: url('GEOCODER_URL', ['http:', 'https:']),
  GEOCODER_KIND: variable<Config['geocoderKind']>('photon', (value, ctx) =>
    value === 'photon' || value === 'nominatim'
      ? value
      : refuse(ctx, `GEOCODER_KIND must be photon or nominatim, got "${value}"`),
  ),
  /** A folder holding a built PWA (its index.html), so a typo does not silently serve the API alone. */
  DIST_DIR: variable<string | null>(null, (value, ctx) => {
    const dir = path.resolve(value);
    if (fs.existsSync(path.join(dir, 'index.html'))) return dir;
    return refuse(ctx, `DIST_DIR must be a folder holding the built PWA (index.html), got "${value}"`);
  }),
  TILE_URL: z.pipe(
    text('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
    z.transform((value: string, ctx) =>
      ['{z}', '{x}', '{y}'].every((part) => value.includes(part))
        ? value
        : refuse(ctx, `TILE_URL must contain {z}, {x} and {y}, got "${value}"`),
    ),
  ),
});

/**
 * The server's secrets: generated into DATA_DIR/keys.json outside production, required in it (every
 * instance must sign, read and derive with the same ones: a hand-over key generated per instance would
 * make a file exported on one tablet unreadable on the other). A key added later joins this list.
 */
const KEY_VARIABLES = ['ACCESS_TOKEN_KEY', 'RESET_TOKEN_KEY', 'HANDOVER_KEY', 'CERTIFICATE_KEY'] as const;

/** "A", "A and B", "A, B and C". */
function listed(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * What is wrong with the keys, in one line, or null: every key missing in production, named at once;
 * two keys with the same value (each must be its own random bytes, or one leaked key opens the others).
 */
function keysProblem(env: Record<(typeof KEY_VARIABLES)[number], string | null> & { NODE_ENV: string }): string | null {
  const missing = KEY_VARIABLES.filter((name) => !env[name]);
  if (env.NODE_ENV === 'production' && missing.length > 0) {
    return `${listed(missing)} ${missing.length > 1 ? 'are' : 'is'} required when NODE_ENV=production`;
  }
  for (const [index, name] of KEY_VARIABLES.entries()) {
    const same = KEY_VARIABLES.slice(index + 1).filter((other) => env[name] && env[other] === env[name]);
    if (same.length > 0) {
      return `${listed([name, ...same])} have the same value: each key must be its own 32 random bytes`;
    }
  }
  return null;
}

const schema = z.pipe(
  // There is no demo in production, whatever DEMO says: it is not even read there.
  z.transform((env: Env) => (env.NODE_ENV === 'production' ? { ...env, DEMO: 'false' } : env)),
  z.pipe(
    environment,
    z.transform((env, ctx): Config => {
      const keyProblem = keysProblem(env);
      if (keyProblem) return refuse(ctx, keyProblem);
      const appUrl = env.APP_URL ?? `http://localhost:${env.PORT}`;
      return {
        port: env.PORT,
        host: env.HOST,
        dataDir: env.DATA_DIR,
        databaseUrl: env.DATABASE_URL,
        appUrl: appUrl.replace(/\/$/, ''),
        allowedOrigins: [appUrl, ...env.ALLOWED_ORIGINS].map((origin) => new URL(origin).origin),
        smtpUrl: env.SMTP_URL,
        redisUrl: env.REDIS_URL,
        nodeEnv: env.NODE_ENV,
        demo: env.DEMO,
        accessTokenKey: env.ACCESS_TOKEN_KEY,
        resetTokenKey: env.RESET_TOKEN_KEY,
        handoverKey: env.HANDOVER_KEY,
        certificateKey: env.CERTIFICATE_KEY,
        trustProxy: env.TRUST_PROXY,
        migrateOnStart: env.MIGRATE_ON_START,
        logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
        tileUrl: env.TILE_URL,
        tileAttribution: env.TILE_ATTRIBUTION,
        geocoderUrl: env.GEOCODER_URL ?? 'https://photon.komoot.io/api',
        geocoderKind: env.GEOCODER_KIND,
        distDir: env.DIST_DIR,
      };
    }),
  ),
);

export function loadConfig(env: Env = process.env): Config {
  const result = z.safeParse(schema, env);
  if (!result.success) throw new ConfigError(result.error.issues[0]?.message ?? 'the configuration is invalid');
  return result.data;
}
