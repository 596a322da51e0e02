/**
 * GET /api/public/client-config: the map tiles and the geocoder chosen by the operator
 * (docs/PRODUCT.md#maps-and-location-search). Asked once per visit and kept in memory; a failed call is asked again
 * next time, and meanwhile the public defaults stand in so the picker still opens.
 */
import type { ClientConfig } from '../../../contract';
import { apiCall } from './call';

export type { ClientConfig };

/** The server's own defaults (server/config.ts). */
export const DEFAULT_CLIENT_CONFIG: ClientConfig = {
  tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  tile_attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  geocoder_url: 'https://photon.komoot.io/api',
  geocoder_kind: 'photon',
};

let cached: Promise<ClientConfig> | null = null;

export function getClientConfig(): Promise<ClientConfig> {
  cached ??= apiCall('GET public /client-config').then((result) => {
    // The client has checked the answer against the contract (a malformed one is a failure).
    if (result.status === 'success') return result.data;
    cached = null;
    return DEFAULT_CLIENT_CONFIG;
  });
  return cached;
}

/** For tests: forget the remembered answer. */
export function clearClientConfigCache() {
  cached = null;
}
