/**
 * Security headers on everything served, with a Content-Security-Policy the PWA works under:
 * its own scripts only (and the pages' one inline script, by its hash), Emotion's inline styles, and the configured tile and geocoder hosts.
 * 'wasm-unsafe-eval' lets the page compile WebAssembly (the scanner's ZXing reader, served from 'self';
 * docs/PRODUCT.md#scanning-and-the-vin-check) and nothing more: eval() and new Function stay refused.
 * CORS stays closed unless ALLOWED_ORIGINS names other origins; then it allows every method the
 * contract's endpoints use, so a call added there (the photo's PUT) is never refused by a preflight.
 */
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import cors from '@fastify/cors';
import { createHash } from 'node:crypto';
import { allEndpoints } from '../../contract/endpoint-list';
import { SIGNED_OUT_REDIRECT_SCRIPT } from '../../contract/shell';
import type { Config } from '../config';

/** "https://{s}.tile.example.org/{z}/{x}/{y}.png" → "https://*.tile.example.org". */
export function cspSourceOf(urlTemplate: string): string {
  const url = new URL(urlTemplate.replace('{s}.', 'sub.').replace(/\{[a-z]+\}/g, '0'));
  const host = urlTemplate.includes('{s}.') ? url.host.replace(/^sub\./, '*.') : url.host;
  return `${url.protocol}//${host}`;
}

/** The one inline script of the pages (the signed-out redirect), allowed by its hash. */
export const SIGNED_OUT_REDIRECT_HASH = `'sha256-${createHash('sha256').update(SIGNED_OUT_REDIRECT_SCRIPT).digest('base64')}'`;

/** Every method an endpoint of the contract is called with, once each. */
const ENDPOINT_METHODS = [...new Set(allEndpoints().map((endpoint) => endpoint.method))];

export const securityPlugin = fp<{ config: Config }>(
  async (app, { config }) => {
    const tiles = cspSourceOf(config.tileUrl);
    const geocoder = cspSourceOf(config.geocoderUrl);
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", "'wasm-unsafe-eval'", SIGNED_OUT_REDIRECT_HASH],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', tiles],
          connectSrc: ["'self'", geocoder, tiles],
          fontSrc: ["'self'", 'data:'],
          workerSrc: ["'self'"],
          manifestSrc: ["'self'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
          ...(config.appUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      // Behind plain HTTP on a workshop LAN, HSTS would lock the tablet out; only send it over HTTPS.
      strictTransportSecurity: config.appUrl.startsWith('https:'),
      crossOriginEmbedderPolicy: false,
    });
    const foreign = config.allowedOrigins.slice(1);
    if (foreign.length > 0) {
      await app.register(cors, {
        origin: foreign,
        credentials: true,
        allowedHeaders: ['content-type', 'authorization', 'x-origin', 'idempotency-key', 'accept-language'],
        methods: ENDPOINT_METHODS,
      });
    }
  },
  { name: 'security' },
);
