/**
 * Configuration from the environment, validated once at start (README.md#configuration).
 * A bad value stops the server with a message that names the variable and what it expects.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

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

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 8080;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${value}"`);
  }
  return port;
}

function parseUrl(name: string, value: string | undefined, protocols: string[]): string | null {
  if (value === undefined || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(' or ')}), got "${value}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return value;
}

function parseBoolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (['1', 'true', 'yes'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(value.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${value}"`);
}

function parseKey(name: string, value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (Buffer.from(value, 'base64url').length !== 32) {
    throw new ConfigError(`${name} must be 32 bytes in base64url (43 characters)`);
  }
  return value;
}

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
function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  const text = (value ?? '').trim();
  if (['', '0', 'false', 'no'].includes(text.toLowerCase())) return false;
  if (['true', 'yes'].includes(text.toLowerCase())) {
    throw new ConfigError(
      'TRUST_PROXY=true would believe any address a client writes in X-Forwarded-For: set the number of proxies in front of the portal (TRUST_PROXY=1 for one) or their addresses (TRUST_PROXY=10.0.0.5 or 10.0.0.0/8, comma-separated)',
    );
  }
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  if (!entries.every(isAddressOrNetwork)) {
    throw new ConfigError(
      `TRUST_PROXY must be a number of proxies (1, 2…) or their addresses or networks (10.0.0.5, 10.0.0.0/8, loopback; comma-separated), got "${value}"`,
    );
  }
  return entries;
}

function parseGeocoderKind(value: string | undefined): Config['geocoderKind'] {
  if (value === undefined || value === '' || value === 'photon') return 'photon';
  if (value === 'nominatim') return 'nominatim';
  throw new ConfigError(`GEOCODER_KIND must be photon or nominatim, got "${value}"`);
}

/** A folder holding a built PWA (its index.html), so a typo does not silently serve the API alone. */
function parseDistDir(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  const dir = path.resolve(value);
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new ConfigError(`DIST_DIR must be a folder holding the built PWA (index.html), got "${value}"`);
  }
  return dir;
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnvRaw = env.NODE_ENV ?? 'development';
  if (!['development', 'production', 'test'].includes(nodeEnvRaw)) {
    throw new ConfigError(`NODE_ENV must be development, production or test, got "${nodeEnvRaw}"`);
  }
  const nodeEnv = nodeEnvRaw as Config['nodeEnv'];
  const port = parsePort(env.PORT);
  const appUrl = parseUrl('APP_URL', env.APP_URL, ['http:', 'https:']) ?? `http://localhost:${port}`;
  const allowedOrigins = (env.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of allowedOrigins) parseUrl('ALLOWED_ORIGINS', origin, ['http:', 'https:']);
  const config: Config = {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: parseUrl('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:']),
    appUrl: appUrl.replace(/\/$/, ''),
    allowedOrigins: [new URL(appUrl).origin, ...allowedOrigins.map((origin) => new URL(origin).origin)],
    smtpUrl: parseUrl('SMTP_URL', env.SMTP_URL, ['smtp:', 'smtps:']),
    redisUrl: parseUrl('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:']),
    nodeEnv,
    demo: nodeEnv !== 'production' && parseBoolean('DEMO', env.DEMO, true),
    accessTokenKey: parseKey('ACCESS_TOKEN_KEY', env.ACCESS_TOKEN_KEY),
    resetTokenKey: parseKey('RESET_TOKEN_KEY', env.RESET_TOKEN_KEY),
    handoverKey: parseKey('HANDOVER_KEY', env.HANDOVER_KEY),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    migrateOnStart: parseBoolean('MIGRATE_ON_START', env.MIGRATE_ON_START, true),
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    tileUrl: env.TILE_URL ?? 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    tileAttribution:
      env.TILE_ATTRIBUTION ?? '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
    geocoderUrl: parseUrl('GEOCODER_URL', env.GEOCODER_URL, ['http:', 'https:']) ?? 'https://photon.komoot.io/api',
    geocoderKind: parseGeocoderKind(env.GEOCODER_KIND),
    distDir: parseDistDir(env.DIST_DIR),
  };
  if (!config.tileUrl.includes('{z}') || !config.tileUrl.includes('{x}') || !config.tileUrl.includes('{y}')) {
    throw new ConfigError(`TILE_URL must contain {z}, {x} and {y}, got "${config.tileUrl}"`);
  }
  if (nodeEnv === 'production' && (!config.accessTokenKey || !config.resetTokenKey)) {
    throw new ConfigError('ACCESS_TOKEN_KEY and RESET_TOKEN_KEY are required when NODE_ENV=production');
  }
  // Every instance must hand a partner's tablets the same hand-over key: a secret generated per
  // instance would make a file exported on one tablet unreadable on the other.
  if (nodeEnv === 'production' && !config.handoverKey) {
    throw new ConfigError('HANDOVER_KEY is required when NODE_ENV=production');
  }
  return config;
}
