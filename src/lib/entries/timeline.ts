/**
 * A vehicle's odometer timeline (docs/PRODUCT.md#vehicle-timeline): every garage's standing readings as
 * the server last gave them (kept for offline use like the lookup), this partner's synced repairs and
 * its entries still queued, judged by the rules the server stores verdicts by (contract/readings.ts).
 * The warning before Insert judges the new reading among the same readings.
 */
import {
  judgeNewReading,
  judgeReadings,
  normaliseKodeId,
  type Reading,
  type ReadingReason,
  type ReadingVerdict,
  type ReadingVerdictCode,
  type Vehicle,
} from '../../../contract';
import { db, type CachedReadings, type HistoryRow, type OutboxEntry } from '../db';
import { useLocalQuery } from '../local-query';
import { currentPartnerId, usePartnerId } from '../partner';
import { unsentCorrections, unsentEntriesOfVehicle } from './outbox-queries';
import { getVehicleReadings } from './vehicle-readings';

/** One point of the timeline. */
export interface TimelineReading {
  /** Unique within the timeline (a server id, an Idempotency-Key, or the server list's position). */
  key: string;
  odometer: number;
  recordedAt: string;
  verdict: ReadingVerdictCode;
  reasons: ReadingReason[];
  /** Recorded by this partner. */
  own: boolean;
  /** Still on the tablet: judged here; the server judges it again when it arrives. */
  queued: boolean;
  /** Has an odometer photo, on the server or still on this tablet (docs/PRODUCT.md#odometer-photo). */
  photo: boolean;
}

export interface VehicleTimeline {
  /** Standing readings, newest first. */
  readings: TimelineReading[];
  /** When the server's readings were last fetched (ISO 8601); null if never. */
  fetchedAt: string | null;
}

/** A reading as the rules take it, with what the timeline shows of it. */
interface KnownReading extends Reading {
  own: boolean;
  queued: boolean;
  photo: boolean;
  /** The server's verdict, when the server has judged it. */
  stored: { verdict: ReadingVerdictCode; reasons: ReadingReason[] } | null;
}

/** Fetches the vehicle's readings and keeps them for this partner; false when the server was not reached. */
export async function refreshTimeline(kodeId: string): Promise<boolean> {
  const partnerId = currentPartnerId();
  const result = await getVehicleReadings(normaliseKodeId(kodeId)).catch(() => null);
  if (!partnerId || result?.status !== 'success') return false;
  await db.readings
    .put({ partnerId, kode_id: normaliseKodeId(kodeId), readings: result.data, fetchedAt: new Date().toISOString() })
    .catch(() => undefined);
  return true;
}

const sameReading = (a: { recorded_at: string; odometer: number }, b: { recorded_at: string; odometer: number }) =>
  a.odometer === b.odometer && Date.parse(a.recorded_at) === Date.parse(b.recorded_at);

function fromServer(cached: CachedReadings, history: readonly HistoryRow[]): KnownReading[] {
  // The partner's own readings come from its history, which knows their corrections.
  const standing = cached.readings.filter(
    (reading) => !(reading.own && history.some((row) => sameReading(row, reading))),
  );
  return standing.map((reading, index) => ({
    id: `server:${index}`,
    odometer: reading.odometer,
    recorded_at: reading.recorded_at,
    received_at: null,
    superseded: false,
    correction_reason: null,
    own: reading.own,
    queued: false,
    photo: reading.has_photo ?? false,
    stored: { verdict: reading.verdict, reasons: reading.reasons },
  }));
}

/** The keys of the entries whose photo is still on this tablet (sent or not, the entry has one). */
type PhotosHere = ReadonlySet<string>;

function fromHistory(row: HistoryRow, correctedHere: ReadonlySet<string>, photosHere: PhotosHere): KnownReading {
  return {
    id: row.id,
    odometer: row.odometer,
    recorded_at: row.recorded_at,
    received_at: row.created_at,
    superseded: Boolean(row.superseded_by) || correctedHere.has(row.id),
    correction_reason: row.correction_reason ?? null,
    own: true,
    queued: false,
    photo: row.photo != null || photosHere.has(row.idempotency_key),
    // A row kept from before verdicts existed has none: it is judged here.
    stored: row.verdict ? { verdict: row.verdict, reasons: row.reasons } : null,
  };
}

function fromOutbox(row: OutboxEntry, photosHere: PhotosHere): KnownReading {
  return {
    id: row.key,
    odometer: row.entry.odometer,
    recorded_at: row.entry.recorded_at,
    received_at: null,
    superseded: false,
    correction_reason: row.entry.correction_reason ?? null,
    own: true,
    queued: true,
    photo: photosHere.has(row.key),
    stored: null,
  };
}

/** Without a timeline fetched, the lookup's last reading stands for every garage's (its date may be unknown). */
function fromLookup(vehicle: Vehicle | null | undefined): KnownReading[] {
  if (!vehicle || vehicle.last_odometer === null) return [];
  return [
    {
      id: 'lookup',
      odometer: vehicle.last_odometer,
      recorded_at: vehicle.last_odometer_at ?? new Date(0).toISOString(),
      received_at: null,
      superseded: false,
      correction_reason: null,
      own: false,
      queued: false,
      photo: false,
      stored: null,
    },
  ];
}

/** Which of these entries have a photo on the tablet: the index's keys only, never the pictures. */
async function photoEntryKeys(entryKeys: readonly string[]): Promise<PhotosHere> {
  if (entryKeys.length === 0) return new Set();
  const keys = await db.photos.where('entryKey').anyOf(entryKeys).keys();
  return new Set(keys.map(String));
}

async function knownReadings(
  partnerId: string,
  kodeId: string,
  vehicle?: Vehicle | null,
): Promise<{ readings: KnownReading[]; fetchedAt: string | null }> {
  const id = normaliseKodeId(kodeId);
  const [cached, history, queued, corrections, cachedVehicle] = await Promise.all([
    db.readings.get([partnerId, id]),
    db.history.where('[partnerId+vehicle.kode_id]').equals([partnerId, id]).toArray(),
    unsentEntriesOfVehicle(db, partnerId, id),
    unsentCorrections(db, partnerId),
    vehicle === undefined ? db.vehicles.get([partnerId, id]) : Promise.resolve(vehicle),
  ]);
  const correctedHere = new Set(corrections.map((row) => row.entry.corrects ?? ''));
  const photosHere = await photoEntryKeys([
    ...history.map((row) => row.idempotency_key),
    ...queued.map((row) => row.key),
  ]);
  return {
    readings: [
      ...(cached ? fromServer(cached, history) : fromLookup(cachedVehicle)),
      ...history.map((row) => fromHistory(row, correctedHere, photosHere)),
      ...queued.map((row) => fromOutbox(row, photosHere)),
    ],
    fetchedAt: cached?.fetchedAt ?? null,
  };
}

/** The standing readings, newest first, each with the server's verdict or, until it has one, the rules' here. */
function toTimeline(readings: readonly KnownReading[]): TimelineReading[] {
  const judged = judgeReadings(readings);
  return readings
    .filter((reading) => !reading.superseded)
    .map((reading) => {
      const judgement = reading.stored ?? judged.get(reading.id) ?? { verdict: 'no_verdict', reasons: [] };
      return {
        key: reading.id,
        odometer: reading.odometer,
        recordedAt: reading.recorded_at,
        verdict: judgement.verdict,
        reasons: judgement.reasons,
        own: reading.own,
        queued: reading.queued,
        photo: reading.photo,
      };
    })
    .sort((a, b) => Date.parse(b.recordedAt) - Date.parse(a.recordedAt) || (a.key < b.key ? 1 : -1));
}

/** The vehicle's timeline, live (a queued entry shows at once, then synced). Undefined while loading. */
export function useVehicleTimeline(kodeId: string): VehicleTimeline | undefined {
  const partnerId = usePartnerId();
  return useLocalQuery(
    async () => {
      if (!partnerId) return { readings: [], fetchedAt: null };
      const known = await knownReadings(partnerId, kodeId);
      return { readings: toTimeline(known.readings), fetchedAt: known.fetchedAt };
    },
    [partnerId, kodeId],
    undefined,
  );
}

/**
 * Is a reading about to be recorded now plausible for the vehicle (docs/PRODUCT.md#odometer-plausibility)?
 * Judged among every reading the tablet knows: the timeline, this partner's history and its queued entries.
 */
export async function checkReading(
  kodeId: string,
  odometer: number,
  vehicle?: Vehicle | null,
): Promise<ReadingVerdict> {
  const partnerId = currentPartnerId();
  const known = partnerId ? (await knownReadings(partnerId, kodeId, vehicle)).readings : fromLookup(vehicle);
  return judgeNewReading(known, { odometer, recorded_at: new Date().toISOString() });
}
