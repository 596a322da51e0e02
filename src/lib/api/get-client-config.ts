/**
 * GET /api/public/client-config: the map tiles and the geocoder chosen by the operator
 * (docs/PRODUCT.md#maps-and-location-search). Asked once per visit and kept in memory; a failed call is asked again
 * next time, and meanwhile the public defaults stand in so the picker still opens.
 */
import { apiRequest } from './client';
import type { GeocoderKind } from '../geocoder';

export interface ClientConfig {
  tile_url: string;
  tile_attribution: string;
  geocoder_url: string;
  geocoder_kind: GeocoderKind;
}

/** The server's own defaults (server/config.ts). */
export const DEFAULT_CLIENT_CONFIG: ClientConfig = {
  tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  tile_attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  geocoder_url: 'https://photon.komoot.io/api',
  geocoder_kind: 'photon',
};

let cached: Promise<ClientConfig> | null = null;

function isClientConfig(value: unknown): value is ClientConfig {
  if (typeof value !== 'object' || value === null) return false;
  const config = value as Record<string, unknown>;
  return (
    typeof config.tile_url === 'string' &&
    typeof config.tile_attribution === 'string' &&
    typeof config.geocoder_url === 'string' &&
    (config.geocoder_kind === 'photon' || config.geocoder_kind === 'nominatim')
  );
}

export function getClientConfig(): Promise<ClientConfig> {
  cached ??= apiRequest<ClientConfig>('public', '/client-config').then((result) => {
    if (result.status === 'success' && isClientConfig(result.data)) return result.data;
    cached = null;
    return DEFAULT_CLIENT_CONFIG;
  });
  return cached;
}

/** For tests: forget the remembered answer. */
export function clearClientConfigCache() {
  cached = null;
}
