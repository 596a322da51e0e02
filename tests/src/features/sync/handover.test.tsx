/**
 * The hand-over file from the sending panel (docs/ARCHITECTURE.md#the-hand-over-file): exported with
 * a format marker, a version, the partner and a seal under the partner's hand-over key; imported on
 * another tablet with the original keys and recorded_at, once; any other file (edited after its export
 * included) refused whole, the outbox unchanged; an entry held here with other values named, not counted.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SyncPanel } from '../../../../src/features/sync/components/SyncPanel';
import { db, type HistoryRow } from '../../../../src/lib/db';
import { renderWithApp } from '../../render';
import { expectToast } from '../../support/api';
import { keyIdOf, sealOf } from '../../../../src/lib/entries/seal';
import {
  clio,
  HANDOVER_KEY,
  offline,
  partner,
  queuedEntry,
  repairTypes,
  useDashboardSetting,
} from '../dashboard/support';
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
    queuedEntry(PENDING, 1, 'queued', '2026-11-20T08:15:00.000Z', 120_500),
    queuedEntry(REJECTED, 2, 'refused', '2026-11-21T09:30:00.000Z', 12, { lastError: REFUSAL }),
    queuedEntry(WAITING, 3, 'waiting_for_sign_in', '2026-11-22T16:45:00.000Z', 121_000),
  ]);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function openPanel() {
  // The panel waits for its words (a catalog of its own): rendered in an awaited act, React lets it resume.
  await act(() => renderWithApp(<SyncPanel open={true} onClose={() => undefined} />));
  return screen.findByRole('dialog', { name: 'Envoi des saisies' });
}

/** `at`: the tablet's clock when Export is tapped (set once the panel shows: React's retries read the clock). */
async function exportFile(at?: Date): Promise<Download> {
  const panel = await openPanel();
  if (at) vi.useFakeTimers({ toFake: ['Date'], now: at });
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
    const file = await exportFile(new Date(2026, 10, 23, 10, 30));
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
    const content = {
      format: 'kode-garage-outbox',
      version: 2,
      partner_id: partner.id,
      key_id: await keyIdOf(HANDOVER_KEY),
      exported_at: new Date(2026, 10, 23, 10, 30).toISOString(),
      entries: [
        entryOf(PENDING, 'pending', '2026-11-20T08:15:00.000Z', 120_500),
        // The status code only: the server's words stay on this tablet.
        { ...entryOf(REJECTED, 'rejected', '2026-11-21T09:30:00.000Z', 12), last_error: { code: 400 } },
        entryOf(WAITING, 'waiting_for_sign_in', '2026-11-22T16:45:00.000Z', 121_000),
      ],
    };
    expect(body).toEqual({ ...content, seal: await sealOf(content, HANDOVER_KEY) });
  });

  it('exports nothing, and says why, on a tablet that has no hand-over key yet', async () => {
    await db.accounts.update(partner.id, { handoverKey: undefined });
    try {
      const panel = await openPanel();
      const button = await within(panel).findByRole('button', { name: 'Exporter les saisies' });
      await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
      await userEvent.click(button);
      await expectToast({
        type: 'error',
        title: 'Export impossible',
        description:
          'Cette tablette doit d’abord se connecter une fois au serveur avec le réseau : elle reçoit alors la clé qui scelle les fichiers de transfert.',
      });
      expect(downloads).toEqual([]);
    } finally {
      await db.accounts.update(partner.id, { handoverKey: HANDOVER_KEY });
    }
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
      [PENDING, 'queued', '2026-11-20T08:15:00.000Z', 120_500, partner.id],
      [REJECTED, 'refused', '2026-11-21T09:30:00.000Z', 12, partner.id],
    ]);
    // Its reason is worded here, by this tablet, from the code the file carries.
    expect(rows[1]!.lastError).toEqual({ code: 400, message: '' });
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

  it('names each entry this tablet holds under the same key with other values, and does not count it as present', async () => {
    const file = await exportFile();
    const body = JSON.parse(file.text) as FileBody;
    // Sealed by a tablet of this partner, yet its first entry differs from the one held here.
    await db.outbox.update(PENDING, { entry: { ...(await db.outbox.get(PENDING))!.entry, odometer: 120_000 } });
    await importText(
      await sealed({ ...body, entries: body.entries.filter((entry) => entry.idempotency_key !== WAITING) }),
    );
    await expectToast({
      type: 'warning',
      title: 'Fichier importé, avec des différences',
      description: '0 saisie ajoutée, 1 déjà présente, 1 différente de celle de cette tablette.',
    });
    const listed = await screen.findByText(
      '1 saisie du fichier diffère de celle de cette tablette : elle n’a pas été importée',
    );
    const alert = listed.closest('[data-import-conflicts]') as HTMLElement;
    expect(within(alert).getByText('KODE000001')).toBeTruthy();
    const row = alert.querySelector('[data-field="odometer"]')!;
    expect(row.textContent?.replace(/\s/g, ' ')).toBe(
      'KilométrageSur cette tablette : 120 000 kmDans le fichier : 120 500 km',
    );
    expect((await db.outbox.get(PENDING))?.entry.odometer).toBe(120_000);
  });

  it.each([
    {
      what: "another partner's file",
      edit: (file: FileBody) => ({ ...file, partner_id: 'partner-2' }),
      message: 'Ce fichier appartient à un autre garage : connectez-vous avec le compte qui l’a exporté.',
    },
    {
      what: 'a file that is not JSON',
      edit: () => '{"format":"kode-garage-outbox","version":2,"entries":[',
      message: 'Ce fichier n’est pas lisible : il est endommagé ou ce n’est pas un fichier de transfert.',
    },
    {
      what: 'a file whose odometer was raised by 1,000 km after its export',
      edit: (file: FileBody) => ({
        ...file,
        entries: [{ ...file.entries[0], odometer: 121_500 }, ...file.entries.slice(1)],
      }),
      message: 'Ce fichier a été modifié après son export : il ne peut pas être importé.',
    },
    {
      what: "a file sealed under another partner's key",
      edit: (file: FileBody) => sealed(file, Buffer.alloc(32, 1).toString('base64url')),
      message: 'Ce fichier a été modifié après son export : il ne peut pas être importé.',
    },
    {
      what: "a file sealed with the garage's key from before its password was changed",
      edit: async (file: FileBody) => {
        const before = Buffer.alloc(32, 2).toString('base64url');
        return sealed({ ...file, key_id: await keyIdOf(before) }, before);
      },
      message:
        'Ce fichier a été scellé avec une autre clé du garage : le mot de passe a été changé entre son export et maintenant. Connectez les deux tablettes avec le nouveau mot de passe, puis exportez-le de nouveau depuis la tablette d’origine.',
    },
    {
      what: 'a file of version 1, without a seal',
      edit: ({ seal: _seal, ...file }: FileBody) => ({ ...file, version: 1 }),
      message:
        'Ce fichier a été exporté par une version précédente du portail, sans sceau d’intégrité : exportez-le à nouveau depuis la tablette d’origine.',
    },
    {
      what: 'a sealed file with one bad entry',
      edit: (file: FileBody) => sealed({ ...file, entries: [file.entries[0], { ...file.entries[1], odometer: -5 }] }),
      message: 'Ce fichier de transfert est endommagé : au moins une saisie est invalide.',
    },
    {
      what: 'a sealed file of the wrong shape',
      edit: (file: FileBody) => sealed({ ...file, entries: 'none' }),
      message: 'Ce fichier de transfert est endommagé : au moins une saisie est invalide.',
    },
    {
      what: 'another version',
      edit: (file: FileBody) => ({ ...file, version: 3 }),
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
    const edited = await edit(JSON.parse(file.text) as FileBody);
    await importText(typeof edited === 'string' ? edited : JSON.stringify(edited));
    await expectToast({ type: 'error', title: 'Import refusé, rien n’a été ajouté', description: message });
    expect(await outboxRows()).toEqual(before);
    expect(api.posted).toEqual([]);
  });
});

/** The file sealed again as a tablet with this key would: its content is genuine, whatever it says. */
async function sealed(file: Record<string, unknown>, key = HANDOVER_KEY): Promise<string> {
  const { seal: _seal, ...content } = file;
  return JSON.stringify({ ...content, seal: await sealOf(content, key) });
}

type FileBody = Record<string, unknown> & {
  partner_id: string;
  seal?: string;
  entries: Record<string, unknown>[];
};

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
