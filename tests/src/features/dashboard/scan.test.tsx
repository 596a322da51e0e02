/**
 * The Scan button with the browser's own BarcodeDetector (Chrome on Android; docs/PRODUCT.md#scanning-and-the-vin-check):
 * a stubbed detector and camera stand in for them, so this covers the native path and the camera's
 * failures that the Chromium end-to-end (tests/e2e/scan.test.ts, ZXing) does not reach.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import DashboardPage from '../../../../src/features/dashboard/pages/DashboardPage';
import { renderWithApp } from '../../render';
import { clio, useDashboardSetting } from './support';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../src/lib/api/client')>();
  return { ...actual, apiRequest: vi.fn() };
});

// The fake API answers the lookup of KODE000001 with the Clio.
useDashboardSetting();

/** What the stubbed detector sees next; formats it was made for. */
const detector = { codes: [] as string[], formats: [] as string[] };
const track = {
  stop: vi.fn(),
  capabilities: {} as { torch?: boolean },
  getCapabilities: () => track.capabilities,
  applyConstraints: vi.fn(() => Promise.resolve()),
};
const stream = { getTracks: () => [track], getVideoTracks: () => [track] };
const getUserMedia = vi.fn<(constraints: MediaStreamConstraints) => Promise<unknown>>();

class StubDetector {
  constructor({ formats }: { formats: string[] }) {
    detector.formats = formats;
  }
  static getSupportedFormats() {
    return Promise.resolve(['qr_code', 'code_128', 'code_39', 'data_matrix', 'ean_13']);
  }
  detect() {
    const code = detector.codes.shift();
    return Promise.resolve(code === undefined ? [] : [{ rawValue: code }]);
  }
}

beforeEach(() => {
  detector.codes = [];
  track.stop.mockClear();
  track.applyConstraints.mockClear();
  track.capabilities = {};
  getUserMedia.mockReset().mockResolvedValue(stream);
  vi.stubGlobal('BarcodeDetector', StubDetector);
  vi.stubGlobal('isSecureContext', true);
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
  // jsdom plays no media: the video is ready at once.
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'readyState', 'get').mockReturnValue(HTMLMediaElement.HAVE_ENOUGH_DATA);
  Object.defineProperty(HTMLMediaElement.prototype, 'srcObject', { value: null, writable: true, configurable: true });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function openScanner(fakeTimers = false) {
  const user = userEvent.setup(fakeTimers ? { advanceTimers: vi.advanceTimersByTime } : {});
  await renderWithApp(<DashboardPage />);
  await screen.findByRole('option', { name: 'Vidange' });
  await user.click(screen.getByRole('button', { name: 'Scanner' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'Scanner le KODE ID' }) };
}

const kodeInput = () => screen.getByLabelText<HTMLInputElement>(/Identifiant du véhicule/);

describe('scanning with the browser’s BarcodeDetector', () => {
  it('asks for the rear camera, refuses what is not a KODE ID, then fills the field and finds the vehicle', async () => {
    detector.codes = ['hello', 'KODE000001'];
    const { dialog } = await openScanner();
    // The camera and the detector start a moment after the view opens.
    await waitFor(() =>
      expect(getUserMedia).toHaveBeenCalledWith(
        expect.objectContaining({ video: expect.objectContaining({ facingMode: { ideal: 'environment' } }) }),
      ),
    );
    await waitFor(() => expect(detector.formats).toEqual(['qr_code', 'code_128', 'data_matrix']));
    await waitFor(() => expect(kodeInput().value).toBe('KODE000001'), { timeout: 5000 });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('VIN').value).toBe(clio.vin));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Scanner le KODE ID' })).toBeNull());
    expect(dialog.isConnected).toBe(false);
    expect(track.stop).toHaveBeenCalled();
  });

  it('says what was read and why it is not a KODE ID', async () => {
    detector.codes = ['kode000001'];
    const { dialog } = await openScanner();
    const refused = await within(dialog).findByText(/un KODE ID ne contient que des lettres majuscules/);
    expect(refused.parentElement?.textContent).toContain('Code lu : kode000001');
    expect(kodeInput().value).toBe('');
  });

  it.each([
    ['NotAllowedError', "L'accès à la caméra a été refusé."],
    ['NotFoundError', "Aucune caméra n'a été trouvée sur cet appareil."],
    ['NotReadableError', 'La caméra est déjà utilisée par une autre application.'],
  ])('says so when the camera fails with %s, and typing still works', async (name, message) => {
    getUserMedia.mockRejectedValue(new DOMException('camera', name));
    const { user, dialog } = await openScanner();
    expect((await within(dialog).findByRole('alert')).textContent).toContain(message);
    await user.click(within(dialog).getByRole('button', { name: 'Saisir au clavier' }));
    await user.type(kodeInput(), 'KODE000001');
    expect(kodeInput().value).toBe('KODE000001');
  });

  it('says the page is not secure where the browser gives no camera', async () => {
    Object.defineProperty(navigator, 'mediaDevices', { value: undefined, configurable: true });
    const { dialog } = await openScanner();
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      "La caméra n'est disponible que sur une page sécurisée (https).",
    );
  });

  it('offers the torch only where the camera has one, and switches it on and off', async () => {
    const first = await openScanner();
    await within(first.dialog).findByText("Placez l'étiquette KODE ID dans le cadre.");
    expect(within(first.dialog).queryByRole('button', { name: 'Allumer la lampe' })).toBeNull();
    await first.user.click(within(first.dialog).getByRole('button', { name: 'Saisir au clavier' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Scanner le KODE ID' })).toBeNull());

    track.capabilities = { torch: true };
    await first.user.click(screen.getByRole('button', { name: 'Scanner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Scanner le KODE ID' });
    const torch = await within(dialog).findByRole('button', { name: 'Allumer la lampe' });
    expect(torch.getAttribute('aria-pressed')).toBe('false');
    await first.user.click(torch);
    expect(track.applyConstraints).toHaveBeenLastCalledWith({ advanced: [{ torch: true }] });
    const off = await within(dialog).findByRole('button', { name: 'Éteindre la lampe' });
    expect(off.getAttribute('aria-pressed')).toBe('true');
    await first.user.click(off);
    expect(track.applyConstraints).toHaveBeenLastCalledWith({ advanced: [{ torch: false }] });
  });

  it('stops the camera after a minute without a read', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { user, dialog } = await openScanner(true);
      await waitFor(() => expect(getUserMedia).toHaveBeenCalled());
      await within(dialog).findByText("Placez l'étiquette KODE ID dans le cadre.");
      await vi.advanceTimersByTimeAsync(61_000);
      await within(dialog).findByText('Caméra arrêtée après une minute sans lecture.');
      expect(track.stop).toHaveBeenCalled();
      await user.click(within(dialog).getByRole('button', { name: 'Reprendre le scan' }));
      await waitFor(() => expect(getUserMedia).toHaveBeenCalledTimes(2));
    } finally {
      vi.useRealTimers();
    }
  });
});
