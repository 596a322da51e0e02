import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGeocoder, fromNominatim, fromPhoton, searchUrl } from '../../../src/lib/geocoder';

const PHOTON_ANSWER = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [3.0587, 36.7731] },
      properties: { name: 'Alger Centre', city: 'Alger', state: 'Alger', country: 'Algérie' },
    },
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [-0.6308, 35.6971] },
      properties: { name: 'Oran', city: 'Oran', state: 'Oran', country: 'Algérie' },
    },
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [3.1, 36.7] },
      properties: { street: 'Rue Didouche Mourad', housenumber: '12', city: 'Alger', country: 'Algérie' },
    },
    { type: 'Feature', geometry: { type: 'Point', coordinates: ['x', 36] }, properties: { name: 'Broken' } },
    { type: 'Feature', geometry: { type: 'Point', coordinates: [3, 36] }, properties: {} },
    { type: 'Feature', properties: { name: 'No geometry' } },
  ],
};

const NOMINATIM_ANSWER = [
  { place_id: 1, display_name: 'Oran, Algérie', lat: '35.6971', lon: '-0.6308', type: 'city' },
  { place_id: 2, display_name: 'Blida, Algérie', lat: '36.4703', lon: '2.8277' },
  { place_id: 3, display_name: 'Broken', lat: 'north', lon: '2' },
  { place_id: 4, lat: '1', lon: '2' },
];

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('geocoder adapters', () => {
  it('maps a Photon FeatureCollection to suggestions: name, city, state, country once each; [lon, lat]', () => {
    expect(fromPhoton(PHOTON_ANSWER)).toEqual([
      { display_name: 'Alger Centre, Alger, Algérie', lat: 36.7731, lon: 3.0587 },
      { display_name: 'Oran, Algérie', lat: 35.6971, lon: -0.6308 },
      { display_name: 'Rue Didouche Mourad 12, Alger, Algérie', lat: 36.7, lon: 3.1 },
    ]);
    expect(fromPhoton({ features: 'nope' })).toEqual([]);
    expect(fromPhoton(null)).toEqual([]);
  });

  it('maps a Nominatim answer to suggestions, numbers from strings', () => {
    expect(fromNominatim(NOMINATIM_ANSWER)).toEqual([
      { display_name: 'Oran, Algérie', lat: 35.6971, lon: -0.6308 },
      { display_name: 'Blida, Algérie', lat: 36.4703, lon: 2.8277 },
    ]);
    expect(fromNominatim({ error: 'x' })).toEqual([]);
  });

  it('builds the Photon request: q, limit 5, lang fr or en (French for Arabic)', () => {
    const config = { url: 'https://photon.test/api', kind: 'photon' as const };
    const fr = new URL(searchUrl(config, 'Bab El Oued', 'fr'));
    expect(fr.origin + fr.pathname).toBe('https://photon.test/api');
    expect(Object.fromEntries(fr.searchParams)).toEqual({ q: 'Bab El Oued', limit: '5', lang: 'fr' });
    expect(new URL(searchUrl(config, 'x', 'en')).searchParams.get('lang')).toBe('en');
    expect(new URL(searchUrl(config, 'x', 'ar')).searchParams.get('lang')).toBe('fr');
  });

  it('builds the Nominatim request with format=json and the query', () => {
    const url = new URL(searchUrl({ url: 'https://nominatim.test/search', kind: 'nominatim' }, 'oran', 'ar'));
    expect(url.searchParams.get('format')).toBe('json');
    expect(url.searchParams.get('q')).toBe('oran');
    expect(url.searchParams.get('accept-language')).toBe('ar');
  });

  it('keeps a relative geocoder URL on the page origin', () => {
    const url = new URL(searchUrl({ url: '/geocoder/api', kind: 'photon' }, 'alger', 'fr'));
    expect(url.origin).toBe(window.location.origin);
    expect(url.pathname).toBe('/geocoder/api');
  });
});

describe('createGeocoder', () => {
  it('answers the mapped suggestions, at most 5', async () => {
    const features = Array.from({ length: 8 }, (_, index) => ({
      geometry: { coordinates: [3, 36 + index / 100] },
      properties: { name: `Lieu ${index}` },
    }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ features })),
    );
    const result = await createGeocoder({ url: 'https://photon.test/api', kind: 'photon' }).search('lieu', 'fr');
    expect(result.status).toBe('ok');
    expect(result.status === 'ok' && result.suggestions).toHaveLength(5);
  });

  it('uses the Nominatim mapping for kind nominatim', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(NOMINATIM_ANSWER)),
    );
    const result = await createGeocoder({ url: 'https://n.test/search', kind: 'nominatim' }).search('oran', 'fr');
    expect(result).toEqual({
      status: 'ok',
      suggestions: [
        { display_name: 'Oran, Algérie', lat: 35.6971, lon: -0.6308 },
        { display_name: 'Blida, Algérie', lat: 36.4703, lon: 2.8277 },
      ],
    });
  });

  it('aborts the previous request when a new one starts', async () => {
    const signals: AbortSignal[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise<Response>((resolve, reject) => {
            const signal = init.signal as AbortSignal;
            signals.push(signal);
            signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
            if (signals.length === 2) resolve(json(PHOTON_ANSWER));
          }),
      ),
    );
    const geocoder = createGeocoder({ url: 'https://photon.test/api', kind: 'photon' });
    const first = geocoder.search('alg', 'fr');
    const second = geocoder.search('alger', 'fr');
    expect(signals[0]?.aborted).toBe(true);
    expect(await first).toEqual({ status: 'aborted' });
    expect((await second).status).toBe('ok');
  });

  it('reports a failure, never throws: network error, HTTP error, bad JSON', async () => {
    const geocoder = createGeocoder({ url: 'https://photon.test/api', kind: 'photon' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect(await geocoder.search('alger', 'fr')).toEqual({ status: 'failed' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ message: 'rate limited' }, 429)),
    );
    expect(await geocoder.search('alger', 'fr')).toEqual({ status: 'failed' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>', { status: 200 })),
    );
    expect(await geocoder.search('alger', 'fr')).toEqual({ status: 'failed' });
  });

  it('gives up after its timeout as a failure', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
          }),
      ),
    );
    const pending = createGeocoder({ url: 'https://photon.test/api', kind: 'photon' }).search('alger', 'fr');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await pending).toEqual({ status: 'failed' });
  });
});
