import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../src/lib/dates';
import { localized } from '../../../src/lib/localized';

describe('dates (docs/PRODUCT.md#dates-and-numbers)', () => {
  it('are shown as DD/MM/YYYY HH:mm in local time', () => {
    expect(formatDateTime(new Date(2026, 0, 5, 7, 3))).toBe('05/01/2026 07:03');
    expect(formatDateTime(new Date(2026, 10, 22, 23, 59).toISOString())).toBe('22/11/2026 23:59');
  });

  it('show nothing for an invalid date', () => {
    expect(formatDateTime('not a date')).toBe('');
  });
});

describe('localised fields (docs/PRODUCT.md#localised-records)', () => {
  const type = { name: 'Vidange', name_ar: 'تغيير الزيت', name_en: 'Oil change' };

  it('use the Arabic value in Arabic and the English one in English', () => {
    expect(localized(type, 'name', 'ar')).toBe('تغيير الزيت');
    expect(localized(type, 'name', 'en')).toBe('Oil change');
    expect(localized(type, 'name', 'fr')).toBe('Vidange');
  });

  it('fall back to the base field when the variant is missing or blank, then to empty', () => {
    expect(localized({ name: 'Vidange', name_ar: null }, 'name', 'ar')).toBe('Vidange');
    expect(localized({ name: 'Vidange', name_ar: '  ' }, 'name', 'ar')).toBe('Vidange');
    expect(localized({ name_ar: null }, 'name', 'ar')).toBe('');
    expect(localized(null, 'name', 'ar')).toBe('');
  });
});
