import { describe, expect, it } from 'vitest';
import { fieldErrors, phoneDigits, PHONE_PATTERN, repairForm, resetPasswordPayload } from '../../contract';

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
