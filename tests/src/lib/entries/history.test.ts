import { describe, expect, it } from 'vitest';
import type { CorrectionReason } from '../../../../contract';
import { newestFirst, type HistoryItem } from '../../../../src/lib/entries/history';
import { repairRecord } from '../../../support/records';

const MOMENT = '2025-03-01T10:00:00.000Z';

/** A stored repair as the history lists it; `corrects` names the repair it corrects. */
function stored(id: string, recordedAt = MOMENT, corrects: string | null = null): HistoryItem {
  const record = repairRecord({
    id,
    vehicle: { kode_id: 'KODE000001', vin: 'VF1RJA00000000001', brand: 'Renault', name: 'Clio', year: 2019 },
    repair_type: { id: 'rt-oil', name: 'Vidange', name_ar: 'تغيير الزيت', name_en: 'Oil change' },
    odometer: 1,
    recorded_at: recordedAt,
    idempotency_key: `key-${id}`,
    corrects,
    correction_reason: corrects ? ('typo' satisfies CorrectionReason) : null,
  });
  return {
    id,
    status: 'synced',
    kodeId: record.vehicle.kode_id,
    odometer: record.odometer,
    repairType: null,
    recordedAt,
    verdict: 'plausible',
    reasons: [],
    superseded: null,
    correctionReason: record.correction_reason,
    correctableUntil: null,
    lastError: null,
    entry: null,
    record,
    conflict: null,
    otherVersionHere: false,
    photo: null,
  };
}

/** An entry still in the outbox; `corrects` names the stored repair it corrects. */
function queued(key: string, recordedAt = MOMENT, corrects?: string): HistoryItem {
  const entry = {
    kode_id: 'KODE000001',
    odometer: 1,
    repair_type_id: 'rt-oil',
    consented: true as const,
    recorded_at: recordedAt,
    ...(corrects ? { corrects, correction_reason: 'typo' as const } : {}),
  };
  return { ...stored(key, recordedAt), status: 'pending', verdict: null, record: null, entry };
}

const ids = (items: HistoryItem[]) => items.map((item) => item.id);

describe('newestFirst', () => {
  it('lists newer moments first, whatever the order read', () => {
    expect(
      ids(newestFirst([stored('a', '2025-01-01T00:00:00.000Z'), stored('b', '2025-02-01T00:00:00.000Z')])),
    ).toEqual(['b', 'a']);
  });

  it('puts a correction right above what it replaces, and a correction of a correction above both', () => {
    const items = [stored('c1'), stored('z9'), stored('c2', MOMENT, 'c1'), stored('a0', MOMENT, 'z9'), stored('m5')];
    const chain = [stored('x'), stored('y', MOMENT, 'x'), queued('k', MOMENT, 'y')];
    // Read in any order, the same list.
    expect(ids(newestFirst([...items, ...chain]))).toEqual(['a0', 'z9', 'k', 'y', 'x', 'm5', 'c2', 'c1']);
    expect(ids(newestFirst([...chain, ...items].reverse()))).toEqual(['a0', 'z9', 'k', 'y', 'x', 'm5', 'c2', 'c1']);
  });

  it('keeps a correction queued on the tablet above the stored entry it corrects', () => {
    expect(ids(newestFirst([stored('repair-1'), queued('0000-key', MOMENT, 'repair-1')]))).toEqual([
      '0000-key',
      'repair-1',
    ]);
  });

  it('places a correction whose original is not listed as that original would be', () => {
    expect(ids(newestFirst([stored('b'), stored('a', MOMENT, 'c'), stored('d')]))).toEqual(['d', 'a', 'b']);
  });

  it('ends even on records that correct each other', () => {
    expect(ids(newestFirst([stored('a', MOMENT, 'b'), stored('b', MOMENT, 'a')]))).toHaveLength(2);
  });
});
