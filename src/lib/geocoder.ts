/**
 * Place search for the location picker (docs/PRODUCT.md#maps-and-location-search). Two kinds of service map to one
 * suggestion type: Photon (the default, built for type-ahead; GeoJSON) and Nominatim (format=json,
 * for a self-hosted or contracted instance). A new search aborts the one still running, so a slow
 * answer to an old query never overwrites a newer one. Never throws.
 */
export type GeocoderKind = 'photon' | 'nominatim';

export interface GeocoderConfig {
  url: string;
  kind: GeocoderKind;
}

export interface Suggestion {
  display_name: string;
  lat: number;
  lon: number;
}

export type GeocodeResult =
  | { status: 'ok'; suggestions: Suggestion[] }
  /** A newer search (or cancel) replaced this one: ignore it. */
  | { status: 'aborted' }
  /** The service could not be reached or answered something unusable. */
  | { status: 'failed' };

export const GEOCODER_LIMIT = 5;
export const GEOCODER_TIMEOUT_MS = 10_000;
/** Photon speaks de, en, fr (and it); Arabic is not among them, French is the next best. */
const PHOTON_LANGUAGES = new Set(['fr', 'en', 'de']);

export interface Geocoder {
  search(query: string, language: string): Promise<GeocodeResult>;
  /** Aborts the search in flight, if any. */
  cancel(): void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function toNumber(value: unknown): number | null {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** "Alger Centre, Alger, Algérie": the name, then the larger places, each part once. */
function photonName(properties: Record<string, unknown>): string {
  const street = [text(properties.street), text(properties.housenumber)].filter(Boolean).join(' ');
  const parts = [
    text(properties.name) || street,
    text(properties.city),
    text(properties.state),
    text(properties.country),
  ];
  const seen = new Set<string>();
  return parts
    .filter((part) => {
      const key = part.toLocaleLowerCase();
      if (!part || seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .join(', ');
}

/** Photon answers a GeoJSON FeatureCollection; coordinates are [lon, lat]. */
export function fromPhoton(body: unknown): Suggestion[] {
  if (!isRecord(body) || !Array.isArray(body.features)) return [];
  const suggestions: Suggestion[] = [];
  for (const feature of body.features) {
    if (!isRecord(feature) || !isRecord(feature.geometry) || !Array.isArray(feature.geometry.coordinates)) continue;
    const lon = toNumber(feature.geometry.coordinates[0]);
    const lat = toNumber(feature.geometry.coordinates[1]);
    const display_name = photonName(isRecord(feature.properties) ? feature.properties : {});
    if (lat === null || lon === null || !display_name) continue;
    suggestions.push({ display_name, lat, lon });
  }
  return suggestions;
}

/** Nominatim answers an array of places with display_name and lat/lon as strings. */
export function fromNominatim(body: unknown): Suggestion[] {
  if (!Array.isArray(body)) return [];
  const suggestions: Suggestion[] = [];
  for (const place of body) {
    if (!isRecord(place)) continue;
    const lat = toNumber(place.lat);
    const lon = toNumber(place.lon);
    const display_name = text(place.display_name);
    if (lat === null || lon === null || !display_name) continue;
    suggestions.push({ display_name, lat, lon });
  }
  return suggestions;
}

/** The request URL for a query; the configured URL may be relative and may carry parameters. */
export function searchUrl(config: GeocoderConfig, query: string, language: string): string {
  const url = new URL(config.url, window.location.origin);
  if (config.kind === 'photon') {
    url.searchParams.set('q', query);
    url.searchParams.set('limit', String(GEOCODER_LIMIT));
    url.searchParams.set('lang', PHOTON_LANGUAGES.has(language) ? language : 'fr');
  } else {
    url.searchParams.set('format', 'json');
    url.searchParams.set('q', query);
    url.searchParams.set('limit', String(GEOCODER_LIMIT));
    url.searchParams.set('accept-language', language);
  }
  return url.toString();
}

const SUPERSEDED = 'superseded';
const TIMED_OUT = 'timeout';

export function createGeocoder(config: GeocoderConfig): Geocoder {
  let current: AbortController | null = null;

  return {
    cancel() {
      current?.abort(SUPERSEDED);
      current = null;
    },
    async search(query, language) {
      current?.abort(SUPERSEDED);
      const controller = new AbortController();
      current = controller;
      const timer = setTimeout(() => controller.abort(TIMED_OUT), GEOCODER_TIMEOUT_MS);
      const superseded = () => controller.signal.aborted && controller.signal.reason === SUPERSEDED;
      try {
        const response = await fetch(searchUrl(config, query, language), {
          headers: { Accept: 'application/json' },
          signal: controller.signal,
        });
        if (!response.ok) return superseded() ? { status: 'aborted' } : { status: 'failed' };
        const body: unknown = await response.json();
        if (superseded()) return { status: 'aborted' };
        const suggestions = config.kind === 'photon' ? fromPhoton(body) : fromNominatim(body);
        return { status: 'ok', suggestions: suggestions.slice(0, GEOCODER_LIMIT) };
      } catch {
        return superseded() ? { status: 'aborted' } : { status: 'failed' };
      } finally {
        clearTimeout(timer);
        if (current === controller) current = null;
      }
    },
  };
}
