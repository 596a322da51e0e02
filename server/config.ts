/**
 * Configuration from the environment, validated once at start (README.md#configuration).
 * A bad value stops the server with a message that names the variable and what it expects.
 */
import fs from 'node:fs';
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
  trustProxy: boolean;
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
    trustProxy: parseBoolean('TRUST_PROXY', env.TRUST_PROXY, false),
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
  return config;
}
