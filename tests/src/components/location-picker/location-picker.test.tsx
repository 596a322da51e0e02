import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Location } from '../../../../contract';
import { apiRequest } from '../../../../src/lib/api/client';
import { clearClientConfigCache } from '../../../../src/lib/api/get-client-config';
import { LocationField } from '../../../../src/components/location-picker/LocationField';
import { LocationPickerDialog } from '../../../../src/components/location-picker/LocationPickerDialog';
import type { LocationMapProps } from '../../../../src/components/location-picker/LocationMap';
import { renderWithApp } from '../../render';
import { clearToasts, ok, scripted, toasts } from '../../support/api';
import { expectVisible } from '../../support/dom';

vi.mock('../../../../src/lib/api/client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../src/lib/api/client')>()),
  apiRequest: vi.fn(),
}));

// Leaflet needs a real browser (the e2e tests cover it): a stand-in that shows its props and
// lets a test "click" the map.
vi.mock('../../../../src/components/location-picker/LocationMap', () => ({
  default: (props: LocationMapProps) => (
    <div data-testid="map" data-lat={props.latitude} data-lon={props.longitude} data-tiles={props.tileUrl}>
      <button type="button" onClick={() => props.onPick(35.697123456, -0.630812345)}>
        map click
      </button>
    </div>
  ),
}));

const api = vi.mocked(apiRequest);
const fetchMock = vi.fn<typeof fetch>();

const CONFIG = {
  tile_url: 'https://tiles.test/{z}/{x}/{y}.png',
  tile_attribution: '&copy; OpenStreetMap',
  geocoder_url: 'https://geo.test/api',
  geocoder_kind: 'photon',
};

function photon(...places: { name: string; lat: number; lon: number }[]) {
  return new Response(
    JSON.stringify({
      type: 'FeatureCollection',
      features: places.map((place) => ({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [place.lon, place.lat] },
        properties: { name: place.name, city: 'Alger', state: 'Alger', country: 'Algérie' },
      })),
    }),
    { headers: { 'Content-Type': 'application/json' } },
  );
}

const ALGER = [
  { name: 'Alger Centre', lat: 36.7731, lon: 3.0587 },
  { name: 'Bab El Oued', lat: 36.7906, lon: 3.0506 },
];

beforeEach(() => {
  clearClientConfigCache();
  api.mockReset();
  api.mockImplementation(scripted({ 'public GET /client-config': () => ok(CONFIG) }));
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => photon(...ALGER));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  clearToasts();
});

interface Harness {
  onConfirm: ReturnType<typeof vi.fn<(location: Location) => void>>;
  onClose: ReturnType<typeof vi.fn<() => void>>;
}

async function openDialog(initial?: Location): Promise<Harness & { dialog: HTMLElement }> {
  const onConfirm = vi.fn<(location: Location) => void>();
  const onClose = vi.fn<() => void>();
  await renderWithApp(<LocationPickerDialog open initial={initial} onConfirm={onConfirm} onClose={onClose} />);
  const dialog = await screen.findByRole('dialog', { name: 'Choisir la localisation' });
  await within(dialog).findByTestId('map');
  return { onConfirm, onClose, dialog };
}

const search = () => screen.getByRole('combobox', { name: 'Rechercher une adresse' });
const selected = () => screen.getByTestId('selected-point').textContent ?? '';
const map = () => screen.getByTestId('map');

function type(text: string) {
  fireEvent.change(search(), { target: { value: text } });
}

describe('location picker dialog', () => {
  it('starts at the default centre near Algiers with the configured tiles', async () => {
    await openDialog();
    expect(selected()).toContain('36.76375, 3.05176');
    expect(map().dataset.lat).toBe('36.76375');
    expect(map().dataset.tiles).toBe(CONFIG.tile_url);
    for (const name of ['Utiliser ma position', 'Annuler', 'Confirmer']) {
      expect(expectVisible(screen.getByRole<HTMLButtonElement>('button', { name })).disabled).toBe(false);
    }
  });

  it('starts at the initial location when there is one', async () => {
    await openDialog({ latitude: 36, longitude: 3 });
    expect(selected()).toContain('36, 3');
    expect(map().dataset.lon).toBe('3');
  });

  it('searches 400 ms after the last keystroke, once', async () => {
    await openDialog();
    vi.useFakeTimers();
    type('alg');
    type('alge');
    type('alger');
    await act(() => vi.advanceTimersByTimeAsync(399));
    expect(fetchMock).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]));
    expect(url.origin + url.pathname).toBe('https://geo.test/api');
    expect(url.searchParams.get('q')).toBe('alger');
    expect(url.searchParams.get('limit')).toBe('5');
    expect(url.searchParams.get('lang')).toBe('fr');
    const options = screen.getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Alger Centre, Alger, Algérie',
      'Bab El Oued, Alger, Algérie',
    ]);
  });

  it('asks nothing below 3 characters and empties the suggestions', async () => {
    await openDialog();
    vi.useFakeTimers();
    type('al');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(fetchMock).not.toHaveBeenCalled();

    type('alg');
    await act(() => vi.advanceTimersByTimeAsync(400));
    expect(screen.getAllByRole('option')).toHaveLength(2);

    type('al');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(search().getAttribute('aria-expanded')).toBe('false');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('sets the point from a chosen suggestion and hands it out on confirm, then closes', async () => {
    const { onConfirm, onClose } = await openDialog();
    vi.useFakeTimers();
    type('alger');
    await act(() => vi.advanceTimersByTimeAsync(400));
    vi.useRealTimers();
    await userEvent.click(screen.getByRole('option', { name: 'Bab El Oued, Alger, Algérie' }));
    expect(selected()).toContain('Bab El Oued, Alger, Algérie');
    expect(selected()).toContain('36.7906, 3.0506');
    expect(map().dataset.lat).toBe('36.7906');
    expect((search() as HTMLInputElement).value).toBe('Bab El Oued, Alger, Algérie');

    await userEvent.click(screen.getByRole('button', { name: 'Confirmer' }));
    expect(onConfirm).toHaveBeenCalledWith({
      latitude: 36.7906,
      longitude: 3.0506,
      address: 'Bab El Oued, Alger, Algérie',
    });
    expect(onClose).toHaveBeenCalled();
  });

  it('chooses a suggestion from the keyboard', async () => {
    await openDialog();
    vi.useFakeTimers();
    type('alger');
    await act(() => vi.advanceTimersByTimeAsync(400));
    vi.useRealTimers();
    fireEvent.keyDown(search(), { key: 'ArrowDown' });
    fireEvent.keyDown(search(), { key: 'ArrowDown' });
    expect(search().getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[1]?.id);
    fireEvent.keyDown(search(), { key: 'Enter' });
    expect(selected()).toContain('36.7906, 3.0506');
  });

  it('sets the point where the map is clicked, rounded to 6 decimals', async () => {
    const { onConfirm } = await openDialog();
    await userEvent.click(screen.getByRole('button', { name: 'map click' }));
    expect(selected()).toContain('35.697123, -0.630812');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmer' }));
    expect(onConfirm).toHaveBeenCalledWith({ latitude: 35.697123, longitude: -0.630812 });
  });

  it('cancel hands nothing out and closes', async () => {
    const { onConfirm, onClose } = await openDialog();
    await userEvent.click(screen.getByRole('button', { name: 'map click' }));
    await userEvent.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(onConfirm).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalled();
  });

  it('shows a small notice when the search service fails, and keeps working', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await openDialog();
    vi.useFakeTimers();
    type('alger');
    await act(() => vi.advanceTimersByTimeAsync(400));
    expectVisible(screen.getByText(/Recherche indisponible/));
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    vi.useRealTimers();
    await userEvent.click(screen.getByRole('button', { name: 'map click' }));
    expect(selected()).toContain('35.697123, -0.630812');
  });

  describe('use my location', () => {
    let getCurrentPosition: ReturnType<typeof vi.fn<Geolocation['getCurrentPosition']>>;

    beforeEach(() => {
      getCurrentPosition = vi.fn<Geolocation['getCurrentPosition']>();
      Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition }, configurable: true });
    });

    it('asks with high accuracy, shows loading, then sets the point labelled "Ma position actuelle"', async () => {
      await openDialog();
      const button = screen.getByRole('button', { name: 'Utiliser ma position' });
      await userEvent.click(button);
      expect(getCurrentPosition).toHaveBeenCalledTimes(1);
      expect(getCurrentPosition.mock.calls[0]?.[2]).toMatchObject({ enableHighAccuracy: true });
      expect(button.hasAttribute('data-loading')).toBe(true);

      const success = getCurrentPosition.mock.calls[0]?.[0];
      act(() => success?.({ coords: { latitude: 36.7, longitude: 3.2 } } as GeolocationPosition));
      await waitFor(() => expect(button.hasAttribute('data-loading')).toBe(false));
      expect(selected()).toContain('Ma position actuelle');
      expect(selected()).toContain('36.7, 3.2');
      expect(map().dataset.lat).toBe('36.7');
    });

    it('on failure only stops the loading: no message, the point stays', async () => {
      await openDialog();
      const button = screen.getByRole('button', { name: 'Utiliser ma position' });
      await userEvent.click(button);
      const failure = getCurrentPosition.mock.calls[0]?.[1];
      act(() => failure?.({ code: 1, message: 'User denied Geolocation' } as GeolocationPositionError));
      await waitFor(() => expect(button.hasAttribute('data-loading')).toBe(false));
      expect(selected()).toContain('36.76375, 3.05176');
      expect(selected()).not.toContain('Ma position actuelle');
      expect(screen.queryByRole('alert')).toBeNull();
      expect(toasts()).toEqual([]);
    });
  });
});

describe('location field with the picker', () => {
  function Form({ onChange }: { onChange?: (location: Location) => void }) {
    const [value, setValue] = useState<Location>({ latitude: 36, longitude: 3 });
    return (
      <LocationField
        label="Localisation"
        value={value}
        onChange={(location) => {
          setValue(location);
          onChange?.(location);
        }}
      />
    );
  }

  const field = () => screen.getByLabelText('Localisation') as HTMLInputElement;

  it('shows "latitude, longitude", and confirm writes the chosen point into it', async () => {
    await renderWithApp(<Form />);
    expect(field().value).toBe('36, 3');
    await userEvent.click(field());
    await screen.findByTestId('map');
    await userEvent.click(screen.getByRole('button', { name: 'map click' }));
    await userEvent.click(screen.getByRole('button', { name: 'Confirmer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(field().value).toBe('35.697123, -0.630812');
  });

  it('cancel and close reset the point and the search for the next opening', async () => {
    const onChange = vi.fn();
    await renderWithApp(<Form onChange={onChange} />);
    await userEvent.click(screen.getByRole('button', { name: 'Choisir la localisation' }));
    await screen.findByTestId('map');
    await userEvent.click(screen.getByRole('button', { name: 'map click' }));
    type('alg');
    await userEvent.click(screen.getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(field().value).toBe('36, 3');

    await userEvent.click(screen.getByRole('button', { name: 'Choisir la localisation' }));
    await screen.findByTestId('map');
    expect(selected()).toContain('36, 3');
    expect((search() as HTMLInputElement).value).toBe('');
    await userEvent.click(screen.getByRole('button', { name: 'map click' }));
    await userEvent.click(screen.getByRole('button', { name: 'Fermer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Choisir la localisation' }));
    await screen.findByTestId('map');
    expect(selected()).toContain('36, 3');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('confirm clears the search text for the next opening', async () => {
    await renderWithApp(<Form />);
    await userEvent.click(screen.getByRole('button', { name: 'Choisir la localisation' }));
    await screen.findByTestId('map');
    type('alg');
    await userEvent.click(screen.getByRole('button', { name: 'Confirmer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: 'Choisir la localisation' }));
    await screen.findByTestId('map');
    expect((search() as HTMLInputElement).value).toBe('');
  });

  it('does not open when not editable', async () => {
    await renderWithApp(
      <LocationField label="Localisation" value={{ latitude: 1, longitude: 2 }} onChange={vi.fn()} editable={false} />,
    );
    await userEvent.click(field());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Choisir la localisation' })).toBeNull();
  });
});
