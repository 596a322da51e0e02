/** A scripted partner API for dashboard tests: apiRequest is mocked and answers from these handlers. */
import { act } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import type { RepairRecord, RepairType, Statistics, User } from '../../../../contract';
import type { ApiResponse, RequestOptions } from '../../../../src/lib/api/client';
import { apiRequest } from '../../../../src/lib/api/client';
import { toaster } from '../../../../src/components/ui/toaster-view';
import { db, type OutboxEntry } from '../../../../src/lib/db';
import { establishSession } from '../../../../src/lib/session';
import { getSyncEngine } from '../../../../src/lib/entries';
import { repairRecord } from '../../../support/records';
import { clio } from './fixtures';

export const partner: User = {
  id: 'partner-1',
  full_name: 'Garage El Amel',
  email: 'garage@example.dz',
  picture: null,
  role: 'partner',
  partner: { phone_number: '0555123456', location: { latitude: 36.7, longitude: 3.05 } },
};

export const repairTypes: RepairType[] = [
  { id: 'rt-oil', name: 'Vidange', name_ar: 'تغيير الزيت', name_en: 'Oil change' },
  { id: 'rt-brakes', name: 'Freinage', name_ar: 'الفرامل', name_en: 'Brakes' },
];

export { clio };

export type Handler = (options: RequestOptions, path: string) => ApiResponse<unknown> | Promise<ApiResponse<unknown>>;

export const ok = <T>(data: T, code = 200): ApiResponse<T> => ({ code, status: 'success', data });
export const fail = (code: number, message: string, reason = 'invalid_request', fields?: Record<string, string>) =>
  ({
    code,
    status: 'error',
    error: { type: code === 404 ? 'not_found' : 'validation', message, reason, ...(fields ? { fields } : {}) },
  }) satisfies ApiResponse<never>;
export const offline = (): ApiResponse<never> => ({
  code: 0,
  status: 'error',
  error: { type: 'other', reason: 'network', message: 'Failed to fetch' },
});

export interface Posted {
  key: string | undefined;
  body: Record<string, unknown>;
}

/** The fake API: routes by "METHOD /path" (without query); anything unknown fails like a dead network. */
export class FakeApi {
  handlers = new Map<string, Handler>();
  posted: Posted[] = [];
  calls: string[] = [];
  storedCount = 0;

  constructor() {
    this.reset();
  }

  reset() {
    this.handlers.clear();
    this.posted = [];
    this.calls = [];
    this.storedCount = 0;
    this.on('GET /repair-types', () => ok(repairTypes));
    this.on('GET /repairs', () => ok([]));
    this.on('GET /statistics', () =>
      ok<Statistics>({
        repairs_total: 1234,
        repairs_this_month: 56,
        vehicles_total: 78,
        last_repair_at: '2025-03-01T09:05:00.000Z',
        implausible_total: 3,
      }),
    );
    this.on('GET /vehicles/KODE000001', () => ok(clio));
    this.on('POST /repairs', (options) => this.store(options));
  }

  on(route: string, handler: Handler) {
    this.handlers.set(route, handler);
    return this;
  }

  store(options: RequestOptions): ApiResponse<RepairRecord> {
    const body = options.body as Record<string, unknown> & { kode_id: string; odometer: number; recorded_at: string };
    this.storedCount += 1;
    const type = repairTypes.find((candidate) => candidate.id === body.repair_type_id) ?? repairTypes[0]!;
    return ok<RepairRecord>(
      repairRecord({
        id: `repair-${this.storedCount}`,
        vehicle: { kode_id: body.kode_id, vin: clio.vin, brand: clio.brand, name: clio.name, year: clio.year },
        repair_type: type,
        odometer: body.odometer,
        recorded_at: body.recorded_at,
        created_at: new Date().toISOString(),
        idempotency_key: options.headers?.['Idempotency-Key'] ?? '',
      }),
      201,
    );
  }

  install() {
    vi.mocked(apiRequest).mockImplementation(async (base, path, options) => {
      const route = `${options.method ?? 'GET'} ${path.split('?')[0]}`;
      this.calls.push(`${base} ${route}`);
      if (route === 'POST /repairs') {
        this.posted.push({ key: options.headers?.['Idempotency-Key'], body: options.body as Record<string, unknown> });
      }
      const handler = this.handlers.get(route);
      return (handler ? await handler(options, path) : offline()) as never;
    });
  }
}

export async function resetPortal() {
  await getSyncEngine().idle();
  toaster.remove();
  await Promise.all([
    db.outbox.clear(),
    db.history.clear(),
    db.vehicles.clear(),
    db.readings.clear(),
    db.repairTypes.clear(),
    db.meta.clear(),
    db.photos.clear(),
  ]);
}

/** What the browser says of the network, with the event the app listens to. */
export function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}

/** The partner's hand-over key as the server hands it out at sign-in (32 bytes, base64url). */
export const HANDOVER_KEY = 'aGFuZC1vdmVyIGtleSBvZiBHYXJhZ2UgRWwgQW1lbCE';

export async function signIn(user: User = partner) {
  await establishSession({ access_token: 'access-token', user, handover_key: HANDOVER_KEY });
}

/**
 * The usual setting of a dashboard test file: before each test a clean tablet, the fake API answering
 * and the partner signed in; after it, the sender idle and the browser online again. Call at the top
 * level; apiRequest must be mocked in the file (vi.mock is hoisted per file).
 */
export function useDashboardSetting(): FakeApi {
  const api = new FakeApi();
  beforeEach(async () => {
    await resetPortal();
    api.reset();
    api.install();
    await signIn();
  });
  afterEach(async () => {
    if (!navigator.onLine) setOnline(true);
    await getSyncEngine().idle();
  });
  return api;
}

/** An entry of the signed-in partner in the outbox, for KODE000001. */
export function queuedEntry(
  key: string,
  seq: number,
  state: OutboxEntry['state'],
  recordedAt: string,
  odometer: number,
  overrides: Partial<OutboxEntry> = {},
): OutboxEntry {
  return {
    key,
    partnerId: partner.id,
    entry: {
      kode_id: 'KODE000001',
      odometer,
      repair_type_id: 'rt-brakes',
      consented: true,
      note: '',
      vin: clio.vin,
      brand: clio.brand,
      model: clio.name,
      year: clio.year,
      recorded_at: recordedAt,
    },
    state,
    seq,
    attempts: state === 'queued' ? 0 : 1,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: recordedAt,
    ...overrides,
  };
}

/** The statistics tiles as the mechanic reads them: each label with the value under it. */
export function statisticTiles(region: HTMLElement): Record<string, string> {
  const text = (element: Element | null) => (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return Object.fromEntries(
    [...region.querySelectorAll('dl')].map((tile) => [text(tile.querySelector('dt')), text(tile.querySelector('dd'))]),
  );
}
