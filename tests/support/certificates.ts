/**
 * Mileage certificates as a stranger checks them: the key set fetched from the public endpoint, the
 * payload canonicalised by the `canonicalize` package itself and the signature checked by @noble/curves'
 * Ed25519, so neither node:crypto's Ed25519 nor the server's code vouches for what the server signed.
 */
import crypto from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import canonicalize from 'canonicalize';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { ApiSuccess, IssuedCertificate, SignedCertificate } from '../../contract';
import type { CertificateKeySet } from '../../contract/certificate-keys';
import type { TestPartner } from './partners';
import { call } from './test-app';

export async function fetchKeySet(app: FastifyInstance): Promise<CertificateKeySet> {
  const res = await app.inject({ method: 'GET', url: '/api/public/certificate-keys' });
  expect(res.statusCode).toBe(200);
  return res.json<CertificateKeySet>();
}

/** The payload's RFC 8785 text as UTF-8 bytes, made without the contract's or the server's code. */
export function canonicalBytes(payload: unknown): Uint8Array {
  const text = canonicalize(payload);
  if (text === undefined) throw new Error('the payload has no JSON form');
  return new TextEncoder().encode(text);
}

/** Whether the signature holds over `message` for the key its kid names in the key set. */
export function signatureHolds(signed: SignedCertificate, keySet: CertificateKeySet, message: Uint8Array): boolean {
  const key = keySet.keys.find((candidate) => candidate.kid === signed.kid);
  if (!key) return false;
  return ed25519.verify(Buffer.from(signed.signature, 'base64url'), message, Buffer.from(key.x, 'base64url'));
}

/** A certificate checked as the public page would: by its own bytes against the published key. */
export function verifies(signed: SignedCertificate, keySet: CertificateKeySet): boolean {
  return signatureHolds(signed, keySet, canonicalBytes(signed.payload));
}

/** RFC 7638 by hand: SHA-256 of the required members in their order, no spaces, base64url. */
export function thumbprintOf(x: string): string {
  return crypto.createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
}

/** POST /api/partner/vehicles/{kodeId}/certificates with the owner's consent; 201 expected. */
export async function issue(app: FastifyInstance, partner: TestPartner, kodeId: string): Promise<IssuedCertificate> {
  const res = await call(app, 'POST', `/api/partner/vehicles/${kodeId}/certificates`, {
    token: partner.token,
    body: { owner_consent: true },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ApiSuccess<IssuedCertificate>>().data;
}
