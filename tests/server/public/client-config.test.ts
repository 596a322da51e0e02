import { afterAll, describe, expect, it } from 'vitest';
import type { ApiSuccess } from '../../../contract';
import type { ClientConfig } from '../../../contract';
import { call, createTestApp, type TestApp } from '../../support/test-app';

describe('GET /api/public/client-config', () => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it('answers the configured tile and geocoder providers, without sign-in', async () => {
    t = await createTestApp({
      env: {
        TILE_URL: 'https://tiles.example.dz/{z}/{x}/{y}.png',
        TILE_ATTRIBUTION: '&copy; Example Tiles',
        GEOCODER_URL: 'https://geo.example.dz/search',
        GEOCODER_KIND: 'nominatim',
      },
    });
    const res = await call(t.app, 'GET', '/api/public/client-config');
    expect(res.statusCode).toBe(200);
    expect(res.json<ApiSuccess<ClientConfig>>()).toEqual({
      code: 200,
      status: 'success',
      data: {
        tile_url: 'https://tiles.example.dz/{z}/{x}/{y}.png',
        tile_attribution: '&copy; Example Tiles',
        geocoder_url: 'https://geo.example.dz/search',
        geocoder_kind: 'nominatim',
      },
    });
    // The content security policy lets the PWA reach exactly those hosts.
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain('https://tiles.example.dz');
    expect(csp).toContain('https://geo.example.dz');
  });

  it('defaults to OpenStreetMap tiles and Photon', async () => {
    const { loadConfig } = await import('../../../server/config');
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.tileUrl).toBe('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    expect(config.tileAttribution).toContain('OpenStreetMap');
    expect(config.geocoderUrl).toBe('https://photon.komoot.io/api');
    expect(config.geocoderKind).toBe('photon');
  });
});
