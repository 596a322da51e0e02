/**
 * The history's photo thumbnails (docs/PRODUCT.md#odometer-photo): a sent photo is fetched from the
 * server only once its thumbnail comes near the screen, or when it is opened; a long history does not
 * download every photo it lists. jsdom has no IntersectionObserver: the test plays the browser's.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RepairRecord } from '../../../../contract';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { getRepairPhoto } from '../../../../src/lib/api/repair-photo';
import { renderWithApp } from '../../render';
import { repairRecord } from '../../../support/records';
import { clio, ok, repairTypes, useDashboardSetting } from './support';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

vi.mock('../../../../src/lib/api/repair-photo', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/repair-photo')>();
  return { ...actual, getRepairPhoto: vi.fn() };
});

const api = useDashboardSetting();

/** The observers the page made, and a way to bring an element near the screen as scrolling would. */
class ScrolledObserver {
  static all: ScrolledObserver[] = [];
  readonly watched = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    ScrolledObserver.all.push(this);
  }
  observe(element: Element) {
    this.watched.add(element);
  }
  unobserve(element: Element) {
    this.watched.delete(element);
  }
  disconnect() {
    this.watched.clear();
  }
  takeRecords() {
    return [];
  }
  static scrollTo(element: Element) {
    for (const observer of ScrolledObserver.all.filter((candidate) => candidate.watched.has(element))) {
      const entry = { isIntersecting: true, target: element } as IntersectionObserverEntry;
      observer.callback([entry], observer as unknown as IntersectionObserver);
    }
  }
}

const objectUrls = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
beforeAll(() => {
  vi.stubGlobal('IntersectionObserver', ScrolledObserver);
  URL.createObjectURL = vi.fn(() => 'blob:photo');
  URL.revokeObjectURL = vi.fn();
});
afterAll(() => {
  vi.unstubAllGlobals();
  URL.createObjectURL = objectUrls.create;
  URL.revokeObjectURL = objectUrls.revoke;
});
afterEach(() => {
  ScrolledObserver.all = [];
});

function withPhoto(index: number): RepairRecord {
  const id = `00000000-0000-4000-8000-0000000001${String(index).padStart(2, '0')}`;
  const at = new Date(Date.now() - index * 3_600_000).toISOString();
  return repairRecord({
    id,
    vehicle: { kode_id: clio.kode_id, vin: clio.vin, brand: clio.brand, name: clio.name, year: clio.year },
    repair_type: repairTypes[0]!,
    idempotency_key: `key-${id}`,
    odometer: 100_000 + index,
    recorded_at: at,
    created_at: at,
    photo: { url: `/api/partner/repairs/${id}/photo`, bytes: 120_000, width: 1600, height: 900 },
  });
}

/** The dashboard's History tab, opened on these records, once their thumbnails are listed. */
async function historyThumbnails(records: RepairRecord[]): Promise<HTMLElement[]> {
  api.on('GET /repairs', () => ok(records));
  const user = userEvent.setup();
  await renderWithApp(<DashboardPage />);
  await screen.findByRole('option', { name: 'Vidange' });
  await user.click(screen.getByRole('tab', { name: 'Historique' }));
  await waitFor(() => expect(document.querySelectorAll('[data-entry-photo]')).toHaveLength(records.length));
  const thumbnails = [...document.querySelectorAll<HTMLElement>('[data-entry-photo]')];
  // Each watched for coming near the screen, as it is once its effect has run.
  const watched = (element: Element) => ScrolledObserver.all.some((observer) => observer.watched.has(element));
  await waitFor(() => expect(thumbnails.every(watched)).toBe(true));
  return thumbnails;
}

/** The server's answer to a photo while too many are moving (docs/API.md#photo-traffic). */
const busy = (retryAfterMs: number) => ({
  code: 503,
  status: 'error' as const,
  error: { type: 'other' as const, message: 'Le service est momentanément indisponible', reason: 'unavailable' },
  retryAfterMs,
});

describe("the history's photo thumbnails", () => {
  it('fetch a sent photo only once it comes near the screen, or when it is opened', async () => {
    const records = [withPhoto(1), withPhoto(2), withPhoto(3)];
    vi.mocked(getRepairPhoto).mockResolvedValue({
      status: 'success',
      blob: new Blob(['webp'], { type: 'image/webp' }),
    });
    const thumbnails = await historyThumbnails(records);
    const user = userEvent.setup();
    // Nothing fetched while none is near the screen.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(getRepairPhoto).not.toHaveBeenCalled();

    ScrolledObserver.scrollTo(thumbnails[0]!);
    await waitFor(() => expect(getRepairPhoto).toHaveBeenCalledTimes(1));
    expect(getRepairPhoto).toHaveBeenLastCalledWith(records[0]!.id);
    await waitFor(() => expect(thumbnails[0]!.querySelector('img')?.getAttribute('src')).toBe('blob:photo'));

    // Opened before it was scrolled to: fetched for the viewer.
    await user.click(within(thumbnails[2]!).getByRole('button', { name: /Voir la photo du compteur/ }));
    await waitFor(() => expect(getRepairPhoto).toHaveBeenCalledTimes(2));
    expect(getRepairPhoto).toHaveBeenLastCalledWith(records[2]!.id);
    expect(vi.mocked(getRepairPhoto).mock.calls.map(([id]) => id)).not.toContain(records[1]!.id);
  });

  it('ask again for a photo the server turned away for a moment, after its Retry-After', async () => {
    vi.mocked(getRepairPhoto)
      .mockReset()
      .mockResolvedValueOnce(busy(20))
      .mockResolvedValueOnce({ status: 'success', blob: new Blob(['webp'], { type: 'image/webp' }) });
    const [thumbnail] = await historyThumbnails([withPhoto(4)]);
    ScrolledObserver.scrollTo(thumbnail!);
    await waitFor(() => expect(thumbnail!.querySelector('img')?.getAttribute('src')).toBe('blob:photo'));
    expect(getRepairPhoto).toHaveBeenCalledTimes(2);
  });

  it('show a photo as missing once the server has turned it away three times, or for good', async () => {
    const records = [withPhoto(5), withPhoto(6)];
    const gone = {
      code: 404,
      status: 'error' as const,
      error: { type: 'not_found' as const, message: '', reason: 'not_found' },
    };
    vi.mocked(getRepairPhoto)
      .mockReset()
      .mockImplementation(async (id) => (id === records[0]!.id ? busy(10) : gone));
    const thumbnails = await historyThumbnails(records);
    for (const thumbnail of thumbnails) ScrolledObserver.scrollTo(thumbnail);
    await waitFor(() => expect(getRepairPhoto).toHaveBeenCalledTimes(4));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(vi.mocked(getRepairPhoto).mock.calls.filter(([id]) => id === records[0]!.id)).toHaveLength(3);
    expect(vi.mocked(getRepairPhoto).mock.calls.filter(([id]) => id === records[1]!.id)).toHaveLength(1);
    for (const thumbnail of thumbnails) expect(thumbnail.querySelector('img')).toBeNull();
  });
});
