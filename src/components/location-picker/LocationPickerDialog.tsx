/**
 * The location picker (docs/PRODUCT.md#location-picker-dialog): an extra large centred dialog with a place
 * search, a "use my location" button and a map. The selected point starts at the initial location
 * or near Algiers; Confirm hands it out and closes; Cancel or close forgets it. The dialog's
 * content lives only while it is open, so each opening starts afresh with an empty search.
 */
import { Box, Button, Dialog, HStack, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { MAP_DEFAULT_CENTER, type Location } from '../../../contract';
import { ChunkErrorBoundary } from '../ui/chunk-error-boundary';
import { DialogBody, DialogCloseButton, DialogFrame } from '../ui/dialog-frame';
import { CrosshairIcon } from '../ui/icons';
import { retryableLazy } from '../ui/retryable-lazy';
import type { Suggestion } from '../../lib/geocoder';
import { getClientConfig, type ClientConfig } from '../../lib/api/get-client-config';
import { formatCoordinates, roundCoordinate } from './format';
import { LocationSearch } from './LocationSearch';

const LocationMap = retryableLazy(() => import('./LocationMap'));

export const GEOLOCATION_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 20_000, maximumAge: 0 };

export interface LocationPickerDialogProps {
  open: boolean;
  /** Where the point starts; MAP_DEFAULT_CENTER when absent. */
  initial?: Location | null;
  onConfirm(location: Location): void;
  onClose(): void;
}

function startingPoint(initial: Location | null | undefined): Location {
  return initial
    ? { latitude: initial.latitude, longitude: initial.longitude, address: initial.address ?? null }
    : { latitude: MAP_DEFAULT_CENTER.latitude, longitude: MAP_DEFAULT_CENTER.longitude };
}

function MapPlaceholder() {
  return <Skeleton height="400px" borderRadius="md" />;
}

function PickerContent({ initial, onConfirm, onClose }: Omit<LocationPickerDialogProps, 'open'>) {
  const { t } = useLingui();
  const [point, setPoint] = useState<Location>(() => startingPoint(initial));
  const [label, setLabel] = useState<string | null>(() => initial?.address ?? null);
  const [query, setQuery] = useState('');
  const [locating, setLocating] = useState(false);
  const [config, setConfig] = useState<ClientConfig | null>(null);

  useEffect(() => {
    let live = true;
    void getClientConfig().then((loaded) => {
      if (live) setConfig(loaded);
    });
    return () => {
      live = false;
    };
  }, []);

  const choose = (suggestion: Suggestion) => {
    setPoint({
      latitude: roundCoordinate(suggestion.lat),
      longitude: roundCoordinate(suggestion.lon),
      address: suggestion.display_name,
    });
    setLabel(suggestion.display_name);
    setQuery(suggestion.display_name);
  };

  const pick = (latitude: number, longitude: number) => {
    setPoint({ latitude: roundCoordinate(latitude), longitude: roundCoordinate(longitude) });
    setLabel(null);
  };

  const locateMe = () => {
    if (!('geolocation' in navigator)) return;
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        const here = t`Ma position actuelle`;
        setLocating(false);
        setPoint({
          latitude: roundCoordinate(position.coords.latitude),
          longitude: roundCoordinate(position.coords.longitude),
        });
        setLabel(here);
        setQuery(here);
      },
      // docs/PRODUCT.md#messages-and-toasts: on failure only the loading indicator stops.
      () => setLocating(false),
      GEOLOCATION_OPTIONS,
    );
  };

  return (
    <>
      <Dialog.Header>
        <Dialog.Title>{t({ id: 'select_location', message: 'Choisir la localisation' })}</Dialog.Title>
      </Dialog.Header>
      <DialogCloseButton size="lg" />
      <DialogBody>
        <Stack gap="3">
          <Stack direction={{ base: 'column', md: 'row' }} align={{ base: 'stretch', md: 'flex-end' }} gap="2">
            <Box flex="1">
              <LocationSearch query={query} onQueryChange={setQuery} onChoose={choose} />
            </Box>
            <Button size="lg" variant="outline" onClick={locateMe} loading={locating} loadingText={t`Localisation…`}>
              <CrosshairIcon />
              {t`Utiliser ma position`}
            </Button>
          </Stack>
          {config ? (
            // Without the map (its code could not be fetched), the search still places the point.
            <ChunkErrorBoundary reset={LocationMap.reset} loading={<MapPlaceholder />}>
              <LocationMap
                latitude={point.latitude}
                longitude={point.longitude}
                tileUrl={config.tile_url}
                attribution={config.tile_attribution}
                onPick={pick}
                label={t`Carte : touchez ou cliquez pour placer le point`}
                markerLabel={t`Point sélectionné`}
              />
            </ChunkErrorBoundary>
          ) : (
            <MapPlaceholder />
          )}
          <Text aria-live="polite" data-testid="selected-point" textAlign="start">
            {t`Point sélectionné :`}{' '}
            {label && (
              <Text as="span" fontWeight="semibold">
                {label}
                {' — '}
              </Text>
            )}
            <Text as="span" dir="ltr" unicodeBidi="isolate">
              {formatCoordinates(point)}
            </Text>
          </Text>
        </Stack>
      </DialogBody>
      <Dialog.Footer>
        <HStack gap="2" justify="flex-end" width="full">
          <Button size="lg" variant="outline" onClick={onClose}>
            {t`Annuler`}
          </Button>
          <Button
            size="lg"
            colorPalette="brand"
            onClick={() => {
              onConfirm(point);
              onClose();
            }}
          >
            {t`Confirmer`}
          </Button>
        </HStack>
      </Dialog.Footer>
    </>
  );
}

export function LocationPickerDialog({ open, initial, onConfirm, onClose }: LocationPickerDialogProps) {
  return (
    <DialogFrame
      open={open}
      onClose={onClose}
      size="xl"
      lazyMount
      unmountOnExit
      // A margin around the extra large dialog on a portrait tablet, whose width it would otherwise fill.
      positioner={{ px: { base: '3', md: '6' } }}
    >
      <Dialog.Content>
        <PickerContent initial={initial} onConfirm={onConfirm} onClose={onClose} />
      </Dialog.Content>
    </DialogFrame>
  );
}
