/**
 * A certificate checked in the browser (src/features/certificate/verify.ts): WebCrypto's Ed25519 against
 * the key set, over the bytes the server signs. The certificates are signed by node:crypto, as the
 * server signs them, so the check and the signing share no code but the contract's signing input.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../../../../contract';
import type { CertificateKeySet } from '../../../../contract/certificate-keys';
import { trustworthy, verifyCertificate, type KeySetLoader } from '../../../../src/features/certificate/verify';
import { CERTIFICATE_ID, KEY_SET, PAYLOAD, signed } from './fixtures';

const keys = (keySet: CertificateKeySet): ApiResult<CertificateKeySet> => ({
  code: 200,
  status: 'success',
  data: keySet,
});
const subtle = globalThis.crypto.subtle;
const published: KeySetLoader = async () => keys(KEY_SET);

describe('verifyCertificate', () => {
  it('verifies a certificate signed by a published key', async () => {
    expect(await verifyCertificate(signed(), CERTIFICATE_ID, published, subtle)).toEqual({ outcome: 'verified' });
  });

  it('finds a payload changed after signing: one more km', async () => {
    const certificate = signed();
    const [first, ...rest] = certificate.payload.readings;
    const altered = { ...certificate, payload: { ...PAYLOAD, readings: [{ ...first!, km: first!.km + 1 }, ...rest] } };
    expect(await verifyCertificate(altered, CERTIFICATE_ID, published, subtle)).toEqual({
      outcome: 'tampered',
      why: 'signature',
    });
  });

  it('finds a signature that is no signature', async () => {
    const certificate = { ...signed(), signature: 'not*base64url' };
    expect(await verifyCertificate(certificate, CERTIFICATE_ID, published, subtle)).toEqual({
      outcome: 'tampered',
      why: 'signature',
    });
  });

  it('finds a genuine certificate shown under another number', async () => {
    const other = signed({ ...PAYLOAD, id: 'AAAA-BBBB-CCCC-DDDD' });
    expect(await verifyCertificate(other, CERTIFICATE_ID, published, subtle)).toEqual({
      outcome: 'tampered',
      why: 'id',
    });
  });

  it('asks for the keys again past the cache before calling a kid unknown', async () => {
    const loadKeys = vi.fn<KeySetLoader>(async () => keys(KEY_SET));
    expect(await verifyCertificate(signed(PAYLOAD, 'unpublished'), CERTIFICATE_ID, loadKeys, subtle)).toEqual({
      outcome: 'unknown_key',
    });
    expect(loadKeys.mock.calls).toEqual([[false], [true]]);
  });

  it('verifies with a key configured since the key set was cached', async () => {
    const loadKeys = vi.fn<KeySetLoader>(async (fresh) => keys(fresh ? KEY_SET : { keys: [] }));
    expect(await verifyCertificate(signed(), CERTIFICATE_ID, loadKeys, subtle)).toEqual({ outcome: 'verified' });
  });

  it('cannot check when the keys are out of reach', async () => {
    const unreachable: KeySetLoader = async () => ({
      code: 0,
      status: 'error',
      error: { type: 'other', reason: 'network', message: 'Failed to fetch' },
    });
    expect(await verifyCertificate(signed(), CERTIFICATE_ID, unreachable, subtle)).toEqual({
      outcome: 'cannot_check',
      why: 'keys_unreachable',
    });
  });

  it('cannot check without WebCrypto (a page not served over https)', async () => {
    expect(await verifyCertificate(signed(), CERTIFICATE_ID, published, undefined)).toEqual({
      outcome: 'cannot_check',
      why: 'unsupported',
    });
  });

  it('cannot check in a browser without Ed25519', async () => {
    const withoutEd25519 = {
      importKey: () => Promise.reject(new DOMException('Unrecognized name.', 'NotSupportedError')),
    } as unknown as SubtleCrypto;
    expect(await verifyCertificate(signed(), CERTIFICATE_ID, published, withoutEd25519)).toEqual({
      outcome: 'cannot_check',
      why: 'unsupported',
    });
  });
});

describe('trustworthy', () => {
  it('shows the readings of a verified certificate, or of one this browser could not check, as its own', () => {
    expect(trustworthy({ outcome: 'verified' })).toBe(true);
    expect(trustworthy({ outcome: 'cannot_check', why: 'unsupported' })).toBe(true);
    expect(trustworthy({ outcome: 'tampered', why: 'signature' })).toBe(false);
    expect(trustworthy({ outcome: 'unknown_key' })).toBe(false);
  });
});
