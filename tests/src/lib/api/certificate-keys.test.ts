/**
 * The key set that signs mileage certificates (src/lib/api/certificate-keys.ts): a JSON Web Key Set, not
 * the envelope, read with its own schema; never a throw; asked past the browser's cache when told to.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CertificateKeySet } from '../../../../contract/certificate-keys';
import { getCertificateKeys } from '../../../../src/lib/api/certificate-keys';
import { MALFORMED_ANSWER_CODE } from '../../../../src/lib/api/client';

const KEY_SET: CertificateKeySet = {
  keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'abc', kid: 'key-1', alg: 'EdDSA', use: 'sig' }],
};

const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>();
const answer = (status: number, body: string) =>
  fetchMock.mockResolvedValue(new Response(body, { status, headers: { 'content-type': 'application/jwk-set+json' } }));

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('getCertificateKeys', () => {
  it('reads the key set from the public base, through the browser’s cache', async () => {
    answer(200, JSON.stringify(KEY_SET));
    expect(await getCertificateKeys()).toEqual({ code: 200, status: 'success', data: KEY_SET });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/public/certificate-keys');
    expect(init.cache).toBeUndefined();
  });

  it('asks the server again past the cache when fresh', async () => {
    answer(200, JSON.stringify(KEY_SET));
    await getCertificateKeys({ fresh: true });
    expect(fetchMock.mock.calls[0]![1].cache).toBe('no-cache');
  });

  it('gives a document that is no key set as a malformed answer', async () => {
    answer(200, JSON.stringify({ keys: [{ kty: 'RSA' }] }));
    expect(await getCertificateKeys()).toMatchObject({ code: MALFORMED_ANSWER_CODE, status: 'error' });
    answer(200, '<html>proxy</html>');
    expect(await getCertificateKeys()).toMatchObject({ code: MALFORMED_ANSWER_CODE, status: 'error' });
  });

  it('gives no answer as a network failure, never a throw', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await getCertificateKeys()).toMatchObject({ code: 0, status: 'error', error: { reason: 'network' } });
  });
});
