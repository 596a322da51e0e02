import { describe, expect, it } from 'vitest';
import {
  base64UrlToBytes,
  CERTIFICATE_ID_PATTERN,
  certificatePath,
  certificateSigningInput,
  normaliseCertificateId,
  type CertificatePayload,
} from '../../contract/server';
import { certificateKeyThumbprintInput } from '../../contract/certificate-keys';

describe('normaliseCertificateId', () => {
  it('writes an id as typed from paper in its one form', () => {
    expect(normaliseCertificateId('7K3M-9QXD-2F8R-TN4W')).toBe('7K3M-9QXD-2F8R-TN4W');
    expect(normaliseCertificateId('7k3m 9qxd 2f8r tn4w')).toBe('7K3M-9QXD-2F8R-TN4W');
    expect(normaliseCertificateId('7K3M9QXD2F8RTN4W')).toBe('7K3M-9QXD-2F8R-TN4W');
    // O reads as 0, I and L as 1: the letters the alphabet leaves out for that reason.
    expect(normaliseCertificateId('OOOO-IIII-LLLL-oooo')).toBe('0000-1111-1111-0000');
    expect(normaliseCertificateId('0000-1111-1111-0000')).toMatch(CERTIFICATE_ID_PATTERN);
  });

  it('refuses what cannot be an id', () => {
    for (const text of [
      '',
      'ABCD-EFGH-JKMN-PQR',
      'ABCD-EFGH-JKMN-PQRST',
      'UUUU-UUUU-UUUU-UUUU',
      'ABCD-EFGH-JKMN-PQR*',
    ]) {
      expect(normaliseCertificateId(text), text).toBeNull();
    }
    expect(normaliseCertificateId(`${'-'.repeat(100)}ABCDEFGHJKMNPQRS`)).toBeNull();
  });

  it('leads to the public page', () => {
    expect(certificatePath('7K3M-9QXD-2F8R-TN4W')).toBe('/c/7K3M-9QXD-2F8R-TN4W');
  });
});

describe('certificateSigningInput', () => {
  it('is the UTF-8 of the canonical JSON, whatever the order of the keys', () => {
    const payload = {
      version: 1,
      issuer: { name: 'Garage Élan', city: null },
      id: 'X',
    } as unknown as CertificatePayload;
    const reordered = {
      id: 'X',
      issuer: { city: null, name: 'Garage Élan' },
      version: 1,
    } as unknown as CertificatePayload;
    const expected = new TextEncoder().encode('{"id":"X","issuer":{"city":null,"name":"Garage Élan"},"version":1}');
    expect(certificateSigningInput(payload)).toEqual(expected);
    expect(certificateSigningInput(reordered)).toEqual(expected);
  });
});

describe('certificateKeyThumbprintInput', () => {
  it("is RFC 7638's members of an Ed25519 key, in order, without spaces", () => {
    expect(new TextDecoder().decode(certificateKeyThumbprintInput('abc'))).toBe(
      '{"crv":"Ed25519","kty":"OKP","x":"abc"}',
    );
  });
});

describe('base64UrlToBytes', () => {
  it('reads base64url with or without padding', () => {
    const bytes = Uint8Array.from([0xfb, 0xff, 0xfe, 0x00, 0x01]);
    const text = Buffer.from(bytes).toString('base64url');
    expect(base64UrlToBytes(text)).toEqual(bytes);
    expect(base64UrlToBytes(`${text}===`.slice(0, Math.ceil(text.length / 4) * 4))).toEqual(bytes);
  });
});
