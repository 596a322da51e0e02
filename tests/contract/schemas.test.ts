import { describe, expect, it } from 'vitest';
import {
  fieldErrors,
  listRepairsQuery,
  phoneDigits,
  PHONE_PATTERN,
  registerPayload,
  repairEntry,
  repairForm,
  resetPasswordPayload,
} from '../../contract';

describe('repair form rules (docs/PRODUCT.md#validation-rules)', () => {
  it('names each field that is wrong, with its own reason', () => {
    expect(fieldErrors(repairForm, { kode_id: 'ABC', odometer: 0, repair_type_id: '', consented: false })).toEqual({
      kode_id: 'kode_id_invalid',
      odometer: 'odometer_invalid',
      repair_type_id: 'repair_type_required',
      consented: 'consent_required',
    });
  });

  it('accepts a complete entry', () => {
    expect(
      fieldErrors(repairForm, {
        kode_id: 'KODE000001',
        odometer: 120500,
        repair_type_id: 'oil_change',
        consented: true,
      }),
    ).toEqual({});
  });

  it('takes exactly ten characters for kode_id', () => {
    const base = { odometer: 1, repair_type_id: 'x', consented: true };
    expect(fieldErrors(repairForm, { ...base, kode_id: 'KODE00000' }).kode_id).toBe('kode_id_invalid');
    expect(fieldErrors(repairForm, { ...base, kode_id: 'KODE0000011' }).kode_id).toBe('kode_id_invalid');
    expect(fieldErrors(repairForm, { ...base, kode_id: 'KODE000001' }).kode_id).toBeUndefined();
  });
});

describe('reset password rules', () => {
  it('reports a mismatch on the confirm field', () => {
    expect(
      fieldErrors(resetPasswordPayload, {
        new_password: 'abcdefgh',
        confirm_password: 'abcdefgX',
        token: 'v4.local.x',
      }),
    ).toEqual({ confirm_password: 'passwords_mismatch' });
  });

  it('refuses a token that is not PASETO v4', () => {
    expect(
      fieldErrors(resetPasswordPayload, { new_password: 'abcdefgh', confirm_password: 'abcdefgh', token: 'v2.x' }),
    ).toEqual({ token: 'token_invalid' });
  });
});

describe('phone numbers (docs/PRODUCT.md#phone-numbers)', () => {
  it.each(['0555123456', '021234567', '05551234567', '023456789'])('accepts %s', (phone) => {
    expect(PHONE_PATTERN.test(phone)).toBe(true);
  });
  it.each(['555123456', '0555', '02123456', '055512345678', '0555-123-456'])('refuses %s', (phone) => {
    expect(PHONE_PATTERN.test(phone)).toBe(false);
  });
  it('keeps only digits', () => {
    expect(phoneDigits('0555 12 34 56')).toBe('0555123456');
  });
});

describe('control characters in text', () => {
  const entry = {
    kode_id: 'KODE000001',
    odometer: 1000,
    repair_type_id: 'oil_change',
    consented: true,
    recorded_at: '2026-01-01T10:00:00Z',
  };
  const FORBIDDEN_EVERYWHERE = ['\u0000', '\u0001', '\u0007', '\u001b', '\u001f', '\u007f', '\u0085', '\u009f'];

  it.each([...FORBIDDEN_EVERYWHERE, '\t', '\n', '\r'])('refuses %j in a one-line field', (char) => {
    expect(fieldErrors(repairEntry, { ...entry, brand: `Re${char}nault` })).toEqual({ brand: 'invalid_characters' });
    expect(fieldErrors(registerPayload.shape.full_name, `Garage${char}Nord`)).toEqual({ _: 'invalid_characters' });
  });

  it.each(FORBIDDEN_EVERYWHERE)('refuses %j in the note', (char) => {
    expect(fieldErrors(repairEntry, { ...entry, note: `Vidange${char}faite` })).toEqual({ note: 'invalid_characters' });
  });

  it('keeps tab, line feed and carriage return in the note, and any printable text anywhere', () => {
    expect(fieldErrors(repairEntry, { ...entry, note: 'Vidange\tfaite\r\nfiltre changé' })).toEqual({});
    const names = ['Garage Bab Ezzouar – Sàrl', 'مرآب باب الزوار', 'Garage 🚗 N°1', 'Garage\u00a0Nord'];
    for (const name of names) expect(fieldErrors(registerPayload.shape.full_name, name)).toEqual({});
  });
});

describe('timestamps (docs/API.md#dates)', () => {
  const entry = {
    kode_id: 'KODE000001',
    odometer: 1000,
    repair_type_id: 'oil_change',
    consented: true,
  };

  it.each([
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59-23:59',
    '1999-12-31T23:59:59.999Z',
    '2000-01-01T00:59:59+01:00',
    '2100-01-01T00:00:00Z',
    '2099-12-31T23:30:00-01:00',
  ])('refuses %s, outside the years 2000 to 2099, in every timestamp of the contract', (at) => {
    expect(fieldErrors(repairEntry, { ...entry, recorded_at: at })).toEqual({
      recorded_at: 'recorded_at_out_of_range',
    });
    expect(fieldErrors(listRepairsQuery, { before: at })).toEqual({ before: 'date_out_of_range' });
  });

  it.each([
    '2000-01-01T00:00:00Z',
    '2000-01-01T01:00:00+01:00',
    '2099-12-31T23:59:59.999999Z',
    '2026-06-01T12:00:00+14:00',
  ])('accepts %s', (at) => {
    expect(fieldErrors(repairEntry, { ...entry, recorded_at: at })).toEqual({});
    expect(fieldErrors(listRepairsQuery, { before: at })).toEqual({});
  });

  it.each(['yesterday', '2026-13-01T00:00:00Z', '2026-01-01', '2026-01-01T00:00:00', '+002026-01-01T00:00:00.000Z'])(
    'refuses %s as malformed, not as out of range',
    (at) => {
      expect(fieldErrors(repairEntry, { ...entry, recorded_at: at })).toEqual({ recorded_at: 'recorded_at_invalid' });
      expect(fieldErrors(listRepairsQuery, { before: at })).toEqual({ before: 'invalid_request' });
    },
  );
});
