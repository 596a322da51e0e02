/**
 * Local stand-ins for the map tile server and the geocoder (docs/PRODUCT.md#maps-and-location-search: no test may reach
 * the public services). The portal is started with TILE_URL and GEOCODER_URL pointing here.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodePng, type Rgb } from './png';

export interface MapStubs {
  origin: string;
  /** Leaflet URL template, for TILE_URL. */
  tileUrl: string;
  /** Photon search endpoint, for GEOCODER_URL with GEOCODER_KIND=photon (the default). */
  geocoderUrl: string;
  /** Nominatim search endpoint, for GEOCODER_URL with GEOCODER_KIND=nominatim. */
  nominatimUrl: string;
  /** Requests received for a path ('/tiles/13/4115/3171.png', '/photon/api') or a path with its query. */
  hits(path: string): number;
  /** Forgets the requests counted so far: a test, and its retry, counts its own from zero. */
  resetHits(): void;
  close(): Promise<void>;
}

interface Place {
  name: string;
  city: string;
  state: string;
  lat: number;
  lon: number;
}

/** Enough places for suggestions: "alg" finds the three Algiers districts, "oran" one city. */
const PLACES: Place[] = [
  { name: 'Alger Centre', city: 'Alger', state: 'Alger', lat: 36.7731, lon: 3.0587 },
  { name: 'Bab El Oued', city: 'Alger', state: 'Alger', lat: 36.7906, lon: 3.0506 },
  { name: 'El Harrach', city: 'Alger', state: 'Alger', lat: 36.7213, lon: 3.1444 },
  { name: 'Oran', city: 'Oran', state: 'Oran', lat: 35.6971, lon: -0.6308 },
  { name: 'Constantine', city: 'Constantine', state: 'Constantine', lat: 36.365, lon: 6.6147 },
  { name: 'Blida', city: 'Blida', state: 'Blida', lat: 36.4703, lon: 2.8277 },
  { name: 'Tizi Ouzou', city: 'Tizi Ouzou', state: 'Tizi Ouzou', lat: 36.7169, lon: 4.0497 },
];

const COUNTRY = 'Algérie';

/** Case- and accent-insensitive, as the real services are. */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

function search(query: string, limit: number): Place[] {
  const q = fold(query);
  if (q.length === 0) return [];
  return PLACES.filter((place) => fold(`${place.name} ${place.city}`).includes(q)).slice(0, limit);
}

function limitOf(params: URLSearchParams, fallback: number): number {
  const limit = Number(params.get('limit'));
  return Number.isInteger(limit) && limit > 0 ? limit : fallback;
}

function photonAnswer(params: URLSearchParams): unknown {
  return {
    type: 'FeatureCollection',
    features: search(params.get('q') ?? '', limitOf(params, 15)).map((place, index) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [place.lon, place.lat] },
      properties: {
        osm_id: 1000 + index,
        osm_type: 'N',
        osm_key: 'place',
        osm_value: place.name === place.city ? 'city' : 'suburb',
        type: place.name === place.city ? 'city' : 'district',
        name: place.name,
        city: place.city,
        state: place.state,
        country: COUNTRY,
        countrycode: 'DZ',
      },
    })),
  };
}

function nominatimAnswer(params: URLSearchParams): unknown {
  // Nominatim sends coordinates as strings.
  return search(params.get('q') ?? '', limitOf(params, 10)).map((place, index) => ({
    place_id: 2000 + index,
    display_name: [place.name, place.city, place.state, COUNTRY]
      .filter((part, i, all) => all.indexOf(part) === i)
      .join(', '),
    lat: String(place.lat),
    lon: String(place.lon),
    class: 'place',
    type: 'suburb',
  }));
}

const TILE_SIZE = 256;
const TILE_BACKGROUND: Rgb = [232, 232, 232];
const TILE_GRID: Rgb = [200, 200, 200];
/** One tile for every address: light grey with a grid line on its top and left edges. */
const TILE_PNG = encodePng(TILE_SIZE, TILE_SIZE, (x, y) => (x === 0 || y === 0 ? TILE_GRID : TILE_BACKGROUND));
const TILE_PATH = /^\/tiles\/\d+\/\d+\/\d+\.png$/;

function send(res: http.ServerResponse, status: number, type: string, body: Buffer | string): void {
  res.writeHead(status, {
    'content-type': type,
    'access-control-allow-origin': '*',
    // No HTTP caching, so hits() counts what the service worker did not serve from its own cache.
    'cache-control': 'no-cache',
  });
  res.end(body);
}

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://stub');
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' });
    res.end();
  } else if (req.method !== 'GET') {
    send(res, 405, 'text/plain', 'method not allowed');
  } else if (TILE_PATH.test(url.pathname)) {
    send(res, 200, 'image/png', TILE_PNG);
  } else if (url.pathname === '/photon/api') {
    send(res, 200, 'application/json', JSON.stringify(photonAnswer(url.searchParams)));
  } else if (url.pathname === '/nominatim/search') {
    send(res, 200, 'application/json', JSON.stringify(nominatimAnswer(url.searchParams)));
  } else {
    send(res, 404, 'text/plain', 'not found');
  }
}

export async function startMapStubs(): Promise<MapStubs> {
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    // Counted by path and by path with query, so a test can ask for either.
    for (const key of new Set([url.pathname, url.pathname + url.search])) counts.set(key, (counts.get(key) ?? 0) + 1);
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    tileUrl: `${origin}/tiles/{z}/{x}/{y}.png`,
    geocoderUrl: `${origin}/photon/api`,
    nominatimUrl: `${origin}/nominatim/search`,
    hits: (path) => counts.get(path) ?? 0,
    resetHits: () => counts.clear(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
