/**
 * The hand-over file from the sending panel (docs/ARCHITECTURE.md#the-hand-over-file): exported with
 * a format marker, a version and the partner; imported on another tablet with the original keys and
 * recorded_at, once; any other file refused whole, the outbox unchanged.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SyncPanel } from '../../../../src/features/sync/components/SyncPanel';
import { db, type HistoryRow } from '../../../../src/lib/db';
import { renderWithApp } from '../../render';
import { expectToast } from '../../support/api';
import { clio, offline, partner, queuedEntry, repairTypes, useDashboardSetting } from '../dashboard/support';
import { repairRecord } from '../../../support/records';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

const api = useDashboardSetting();

const PENDING = '00000000-0000-4000-8000-0000000000b1';
const REJECTED = '00000000-0000-4000-8000-0000000000b2';
const WAITING = '00000000-0000-4000-8000-0000000000b3';
const REFUSAL = { code: 400, message: 'Veuillez saisir un kilometrage valide' };

interface Download {
  name: string;
  type: string;
  text: string;
}

let downloads: Download[] = [];

beforeEach(async () => {
  // This tablet cannot reach the server: imported entries stay in its outbox, to be looked at.
  api.on('POST /repairs', () => offline());
  downloads = [];
  const blobs = new Map<string, Blob>();
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob);
    return url;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href)!;
    void blob.text().then((text) => downloads.push({ name: this.download, type: blob.type, text }));
  });
  await db.outbox.bulkAdd([
    queuedEntry(PENDING, 1, 'pending', '2026-11-20T08:15:00.000Z', 120_500),
    queuedEntry(REJECTED, 2, 'rejected', '2026-11-21T09:30:00.000Z', 12, { lastError: REFUSAL }),
    queuedEntry(WAITING, 3, 'waiting_for_sign_in', '2026-11-22T16:45:00.000Z', 121_000),
  ]);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function openPanel() {
  await renderWithApp(<SyncPanel open={true} onClose={() => undefined} />);
  return screen.findByRole('dialog', { name: 'Envoi des saisies' });
}

async function exportFile(): Promise<Download> {
  const panel = await openPanel();
  const button = await within(panel).findByRole('button', { name: 'Exporter les saisies' });
  await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
  await userEvent.click(button);
  await waitFor(() => expect(downloads).toHaveLength(1));
  await expectToast({ type: 'success', title: '3 saisies exportées' });
  return downloads[0]!;
}

async function importText(text: string) {
  const input = screen.getByLabelText('Fichier de transfert à importer', { selector: 'input' });
  await userEvent.upload(input, new File([text], 'transfert.json', { type: 'application/json' }));
}

/** What the outbox holds, as compared before and after an import. */
async function outboxRows() {
  const rows = await db.outbox.orderBy('seq').toArray();
  return rows.map(({ key, state, entry, lastError, partnerId }) => ({ key, state, entry, lastError, partnerId }));
}

describe('hand-over file', () => {
  it('exports every unsent and refused entry of the partner, with the format, version and partner, named after them', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 10, 23, 10, 30) });
    const file = await exportFile();
    expect(file.name).toBe('kode-garage-garage-el-amel-2026-11-23.json');
    expect(file.type).toBe('application/json');
    const body = JSON.parse(file.text) as Record<string, unknown>;
    const entryOf = (key: string, state: string, recordedAt: string, odometer: number) => ({
      idempotency_key: key,
      recorded_at: recordedAt,
      kode_id: 'KODE000001',
      odometer,
      repair_type_id: 'rt-brakes',
      consented: true,
      note: '',
      vin: 'VF1RJA00000000001',
      brand: 'Renault',
      model: 'Clio',
      year: 2019,
      state,
    });
    expect(body).toEqual({
      format: 'kode-garage-outbox',
      version: 1,
      partner_id: partner.id,
      exported_at: new Date(2026, 10, 23, 10, 30).toISOString(),
      entries: [
        entryOf(PENDING, 'pending', '2026-11-20T08:15:00.000Z', 120_500),
        { ...entryOf(REJECTED, 'rejected', '2026-11-21T09:30:00.000Z', 12), last_error: REFUSAL },
        entryOf(WAITING, 'waiting_for_sign_in', '2026-11-22T16:45:00.000Z', 121_000),
      ],
    });
  });

  it('imported into a fresh outbox: original keys and recorded_at; a second import adds nothing', async () => {
    const file = await exportFile();
    await db.outbox.clear();
    // One of them reached the server meanwhile and is in this tablet's synced history.
    await db.history.put(syncedRecord(WAITING));

    await importText(file.text);
    await expectToast({
      type: 'success',
      title: 'Fichier importé',
      description: '2 saisies ajoutées, 1 déjà présente.',
    });
    const rows = await outboxRows();
    expect(rows.map((row) => [row.key, row.state, row.entry.recorded_at, row.entry.odometer, row.partnerId])).toEqual([
      [PENDING, 'pending', '2026-11-20T08:15:00.000Z', 120_500, partner.id],
      [REJECTED, 'rejected', '2026-11-21T09:30:00.000Z', 12, partner.id],
    ]);
    expect(rows[1]!.lastError).toEqual(REFUSAL);
    // The sender was started: the pending one went out under its original key.
    await waitFor(() => expect(api.posted.map((post) => post.key)).toContain(PENDING));
    expect(api.posted.find((post) => post.key === PENDING)?.body.recorded_at).toBe('2026-11-20T08:15:00.000Z');

    const before = await outboxRows();
    await importText(file.text);
    await expectToast({
      type: 'success',
      title: 'Fichier importé',
      description: '0 saisie ajoutée, 3 déjà présentes.',
    });
    expect(await outboxRows()).toEqual(before);
  });

  it.each([
    {
      what: "another partner's file",
      edit: (file: FileBody) => ({ ...file, partner_id: 'partner-2' }),
      message: 'Ce fichier appartient à un autre garage : connectez-vous avec le compte qui l’a exporté.',
    },
    {
      what: 'a file that is not JSON',
      edit: () => '{"format":"kode-garage-outbox","version":1,"entries":[',
      message: 'Ce fichier n’est pas lisible : il est endommagé ou ce n’est pas un fichier de transfert.',
    },
    {
      what: 'a file with one bad entry',
      edit: (file: FileBody) => ({
        ...file,
        entries: [file.entries[0], { ...file.entries[1], odometer: -5 }],
      }),
      message: 'Ce fichier de transfert est endommagé : au moins une saisie est invalide.',
    },
    {
      what: 'a file of the wrong shape',
      edit: (file: FileBody) => ({ ...file, entries: 'none' }),
      message: 'Ce fichier de transfert est endommagé : au moins une saisie est invalide.',
    },
    {
      what: 'another version',
      edit: (file: FileBody) => ({ ...file, version: 2 }),
      message:
        'Ce fichier n’est pas un fichier de transfert du portail KODE Garage (ou sa version n’est pas prise en charge).',
    },
    {
      what: 'another format',
      edit: (file: FileBody) => ({ ...file, format: 'other-app-backup' }),
      message:
        'Ce fichier n’est pas un fichier de transfert du portail KODE Garage (ou sa version n’est pas prise en charge).',
    },
  ])('refuses $what with a clear message and changes nothing', async ({ edit, message }) => {
    const file = await exportFile();
    await db.outbox.delete(PENDING);
    const before = await outboxRows();
    const edited = edit(JSON.parse(file.text) as FileBody);
    await importText(typeof edited === 'string' ? edited : JSON.stringify(edited));
    await expectToast({ type: 'error', title: 'Import refusé, rien n’a été ajouté', description: message });
    expect(await outboxRows()).toEqual(before);
    expect(api.posted).toEqual([]);
  });
});

interface FileBody {
  partner_id: string;
  entries: Record<string, unknown>[];
}

/** A repair this tablet already holds as synced: the server stored it under this key. */
function syncedRecord(key: string): HistoryRow {
  const recordedAt = '2026-11-22T16:45:00.000Z';
  return {
    partnerId: partner.id,
    ...repairRecord({
      id: 'repair-synced',
      vehicle: { kode_id: 'KODE000001', vin: clio.vin, brand: clio.brand, name: clio.name, year: clio.year },
      repair_type: repairTypes[1]!,
      odometer: 121_000,
      recorded_at: recordedAt,
      idempotency_key: key,
    }),
  };
}
