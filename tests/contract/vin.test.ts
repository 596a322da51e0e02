import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkVin, isVinForm, normalizeVin, readKodeId, vinCheckDigit, vinCheckDigitApplies } from '../../contract';

describe('readKodeId', () => {
  it('accepts exactly 10 upper-case letters or digits, spaces around ignored', () => {
    expect(readKodeId('KODE000001')).toEqual({ kind: 'kode_id', kodeId: 'KODE000001' });
    expect(readKodeId('  V3SMJ5P6FX\n')).toEqual({ kind: 'kode_id', kodeId: 'V3SMJ5P6FX' });
  });

  it('says why anything else is not a KODE ID', () => {
    expect(readKodeId('   ')).toEqual({ kind: 'empty' });
    expect(readKodeId('https://example.com/x')).toEqual({ kind: 'wrong_length', length: 21 });
    expect(readKodeId('VF1S1CD16RB267735')).toEqual({ kind: 'wrong_length', length: 17 });
    expect(readKodeId('kode000001')).toEqual({ kind: 'wrong_characters' });
    expect(readKodeId('KODE-00001')).toEqual({ kind: 'wrong_characters' });
  });
});

describe('VIN form and check digit', () => {
  it('computes the North-American check digit, X for 10', () => {
    expect(vinCheckDigit('1M8GDM9AXKP042788')).toBe('X');
    expect(vinCheckDigit('1HGCM82633A004352')).toBe('3');
    expect(vinCheckDigit('VF1S1CD16RB267735')).toBe('6');
  });

  it('holds for every demo vehicle of the seed', () => {
    const rows = readFileSync('server/seed/vehicles.csv', 'utf8').trim().split('\n');
    for (const row of rows.slice(1)) {
      const vin = row.split(',')[1] ?? '';
      expect(isVinForm(vin), vin).toBe(true);
      expect(vinCheckDigit(vin), vin).toBe(vin[8]);
    }
  });

  it('applies only where position 9 is a digit or X', () => {
    expect(vinCheckDigitApplies('1M8GDM9AXKP042788')).toBe(true);
    expect(vinCheckDigitApplies('WVWZZZ1JZXW000001')).toBe(false);
  });

  it('refuses I, O and Q and any length but 17', () => {
    expect(isVinForm('VF1S1CD16RB267735')).toBe(true);
    expect(isVinForm('VF1S1CD16RB26773I')).toBe(false);
    expect(isVinForm('VF1S1CD16RB26773O')).toBe(false);
    expect(isVinForm('VF1S1CD16RB26773Q')).toBe(false);
    expect(isVinForm('VF1S1CD16RB26773')).toBe(false);
  });

  it('normalizes case, spaces, dashes and the import "I" of a door-pillar label', () => {
    expect(normalizeVin(' vf1s1 cd16-rb267735 ')).toBe('VF1S1CD16RB267735');
    expect(normalizeVin('IVF1S1CD16RB267735')).toBe('VF1S1CD16RB267735');
  });
});

describe('checkVin', () => {
  const vehicle = 'VF1S1CD16RB267735';

  it('confirms the same VIN however it was typed', () => {
    expect(checkVin('vf1s1cd16rb267735', vehicle)).toEqual({ kind: 'match', vin: vehicle });
  });

  it('waits while fewer than 17 characters are typed, refuses what is not a VIN', () => {
    expect(checkVin('', vehicle).kind).toBe('empty');
    expect(checkVin('VF1S1', vehicle).kind).toBe('incomplete');
    expect(checkVin('VF1S1CD16RB26773O', vehicle).kind).toBe('invalid');
    expect(checkVin('VF1S1CD16RB2677355', vehicle).kind).toBe('invalid');
  });

  it('reports another vehicle, and whether its check digit says it was misread', () => {
    expect(checkVin('VF12T7VY4HJ685969', vehicle)).toEqual({
      kind: 'mismatch',
      vin: 'VF12T7VY4HJ685969',
      checkDigitFailed: false,
    });
    // One character off: its check digit no longer holds.
    expect(checkVin('VF1S1CD16RB267736', vehicle)).toMatchObject({ kind: 'mismatch', checkDigitFailed: true });
    // A European VIN without a check digit is never said to fail it.
    expect(checkVin('WVWZZZ1JZXW000001', vehicle)).toMatchObject({ kind: 'mismatch', checkDigitFailed: false });
  });

  it('matches a registry VIN whose position 9 is a digit but not a check digit', () => {
    expect(checkVin('VF1S1CD13RB267735', 'VF1S1CD13RB267735').kind).toBe('match');
  });
});
