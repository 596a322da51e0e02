/**
 * A NUL (U+0000) in any text field of any endpoint is refused with a 400 naming the field, never a
 * 500 from the database (PostgreSQL text cannot hold it). Free-text fields answer
 * invalid_characters; fields with a strict format (kode_id, email, phone, date) their own code.
 * Table-driven: each row puts a NUL into one field of an otherwise valid body.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ApiFailure, ErrorCode } from '../../contract';
import { messageFor } from '../../server/i18n/messages';
import { type TestPartner, useAppWithPartner } from '../support/partners';
import { call } from '../support/test-app';
import { PROXY_ENV, registerBody, uniqueIp } from './auth/helpers';

type Body = Record<string, unknown>;

interface Endpoint {
  method: 'POST' | 'PATCH';
  url: string;
  /** A valid body with every optional text field filled in. */
  body(partner: TestPartner): Body;
  /** Field path (dotted for nested ones) → the code its NUL is refused with. */
  fields: Record<string, ErrorCode>;
}

const location = { latitude: 36.72, longitude: 3.14, address: 'Rue Didouche Mourad, Alger' };

const ENDPOINTS: Record<string, Endpoint> = {
  register: {
    method: 'POST',
    url: '/api/auth/register/partner',
    body: () => ({ ...registerBody(), location }),
    fields: {
      email: 'email_invalid',
      full_name: 'invalid_characters',
      password: 'invalid_characters',
      phone_number: 'phone_invalid',
      'location.address': 'invalid_characters',
    },
  },
  login: {
    method: 'POST',
    url: '/api/auth/login',
    body: (partner) => ({ email: partner.email, password: partner.password, remember_me: false }),
    fields: { email: 'email_invalid', password: 'invalid_characters' },
  },
  'forgot-password': {
    method: 'POST',
    url: '/api/auth/forgot-password',
    body: (partner) => ({ email: partner.email }),
    fields: { email: 'email_invalid' },
  },
  'reset-password': {
    method: 'POST',
    url: '/api/auth/reset-password',
    body: () => ({ new_password: 'a-new-password', confirm_password: 'a-new-password', token: 'v4.local.abcdef' }),
    fields: { token: 'invalid_characters', new_password: 'invalid_characters', confirm_password: 'invalid_characters' },
  },
  profile: {
    method: 'PATCH',
    url: '/api/partner/profile',
    body: (partner) => ({
      full_name: 'Garage Bab Ezzouar',
      email: partner.email,
      phone_number: '0555123456',
      location,
      current_password: partner.password,
      new_password: 'another-long-password',
    }),
    fields: {
      full_name: 'invalid_characters',
      email: 'email_invalid',
      phone_number: 'phone_invalid',
      'location.address': 'invalid_characters',
      current_password: 'invalid_characters',
      new_password: 'invalid_characters',
    },
  },
  repairs: {
    method: 'POST',
    url: '/api/partner/repairs',
    body: () => ({
      kode_id: 'KODE000001',
      odometer: 120_500,
      repair_type_id: 'oil_change',
      consented: true,
      note: 'Vidange faite',
      vin: 'VF1S1CD16RB267735',
      brand: 'Renault',
      model: 'Symbol',
      year: '2024',
      recorded_at: new Date().toISOString(),
    }),
    fields: {
      kode_id: 'kode_id_invalid',
      repair_type_id: 'invalid_characters',
      note: 'invalid_characters',
      vin: 'invalid_characters',
      brand: 'invalid_characters',
      model: 'invalid_characters',
      year: 'invalid_characters',
      recorded_at: 'recorded_at_invalid',
    },
  },
};

const ROWS = Object.entries(ENDPOINTS).flatMap(([name, endpoint]) =>
  Object.entries(endpoint.fields).map(([field, reason]) => ({ name, endpoint, field, reason })),
);

/** The body with a NUL in the middle of the field's value ("a.b" for a nested one). */
function withNul(body: Body, field: string): Body {
  const copy = structuredClone(body);
  const keys = field.split('.');
  const last = keys.pop() ?? '';
  const parent = keys.reduce<Body>((object, key) => object[key] as Body, copy);
  const value = String(parent[last]);
  const middle = Math.floor(value.length / 2);
  parent[last] = `${value.slice(0, middle)}\u0000${value.slice(middle)}`;
  return copy;
}

describe('a NUL character in a text field', () => {
  const fixture = useAppWithPartner({ env: PROXY_ENV });

  it.each(ROWS)('$name: $field answers 400 $reason naming the field', async ({ endpoint, field, reason }) => {
    const res = await call(fixture.t.app, endpoint.method, endpoint.url, {
      body: withNul(endpoint.body(fixture.partner), field),
      token: fixture.partner.token,
      headers: { 'x-forwarded-for': uniqueIp(), 'idempotency-key': crypto.randomUUID() },
    });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<ApiFailure>();
    expect(body).toMatchObject({ code: 400, status: 'error', error: { type: 'validation', reason } });
    const named = field.split('.')[0] ?? field;
    // Other fields may be named too (a spoiled new password no longer matches its confirmation).
    expect(body.error.fields?.[named]).toBe(messageFor(reason, 'fr'));
  });

  it('leaves the valid bodies of the table valid (each row spoils only its field)', async () => {
    const res = await call(fixture.t.app, 'POST', '/api/partner/repairs', {
      body: ENDPOINTS.repairs?.body(fixture.partner),
      token: fixture.partner.token,
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(res.statusCode, res.body).toBe(201);
    const registered = await call(fixture.t.app, 'POST', '/api/auth/register/partner', {
      body: ENDPOINTS.register?.body(fixture.partner),
      headers: { 'x-forwarded-for': uniqueIp() },
    });
    expect(registered.statusCode, registered.body).toBe(201);
  });
});
