/**
 * The picker's map. Leaflet (its code and its CSS) is in this module alone, loaded with
 * React.lazy when the dialog opens, so no other screen pays for it. The marker icons are
 * bundled from the leaflet package (hashed assets, cached by the service worker), never a CDN.
 */
import 'leaflet/dist/leaflet.css';
import { Box } from '@chakra-ui/react';
import L from 'leaflet';
import iconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import iconUrl from 'leaflet/dist/images/marker-icon.png';
import shadowUrl from 'leaflet/dist/images/marker-shadow.png';
import { useEffect, useMemo } from 'react';
import { MapContainer, Marker, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { sanitizeHtml } from '../../lib/sanitize';

export const MAP_ZOOM = 13;
export const MAP_HEIGHT = '400px';

const markerIcon = L.icon({
  iconUrl,
  iconRetinaUrl,
  shadowUrl,
  iconSize: [25, 41],
  iconAnchor: [12, 41],
  popupAnchor: [1, -34],
  tooltipAnchor: [16, -28],
  shadowSize: [41, 41],
});

export interface LocationMapProps {
  latitude: number;
  longitude: number;
  tileUrl: string;
  /** HTML from the client config; sanitised before Leaflet shows it. */
  attribution: string;
  onPick(latitude: number, longitude: number): void;
  /** Accessible name of the map region. */
  label: string;
  /** Accessible name of the marker. */
  markerLabel: string;
}

function PickOnClick({ onPick }: { onPick: LocationMapProps['onPick'] }) {
  useMapEvents({
    click(event) {
      onPick(event.latlng.lat, event.latlng.lng);
    },
  });
  return null;
}

/** The map follows the point when it changes (a suggestion, the device position, a click). */
function FollowPoint({ latitude, longitude }: { latitude: number; longitude: number }) {
  const map = useMap();
  useEffect(() => {
    map.setView([latitude, longitude], map.getZoom());
  }, [map, latitude, longitude]);
  return null;
}

/** A map born inside an opening dialog measures itself too early: measure again when it settles. */
function KeepSized() {
  const map = useMap();
  useEffect(() => {
    const container = map.getContainer();
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(container);
    const timer = window.setTimeout(() => map.invalidateSize(), 250);
    return () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
  }, [map]);
  return null;
}

export default function LocationMap({
  latitude,
  longitude,
  tileUrl,
  attribution,
  onPick,
  label,
  markerLabel,
}: LocationMapProps) {
  const safeAttribution = useMemo(() => sanitizeHtml(attribution), [attribution]);
  return (
    <Box
      role="group"
      aria-label={label}
      dir="ltr"
      height={MAP_HEIGHT}
      borderRadius="md"
      overflow="hidden"
      borderWidth="1px"
      css={{
        // Touch-sized zoom buttons.
        '& .leaflet-touch .leaflet-bar a, & .leaflet-bar a': { width: '44px', height: '44px', lineHeight: '44px' },
        '& .leaflet-container': { fontFamily: 'inherit' },
      }}
    >
      <MapContainer center={[latitude, longitude]} zoom={MAP_ZOOM} style={{ height: '100%', width: '100%' }}>
        {/* CORS requests, so the service worker can cache real 200 answers for offline use (src/sw.ts). */}
        <TileLayer url={tileUrl} attribution={safeAttribution} crossOrigin />
        <Marker position={[latitude, longitude]} icon={markerIcon} title={markerLabel} alt={markerLabel} />
        <PickOnClick onPick={onPick} />
        <FollowPoint latitude={latitude} longitude={longitude} />
        <KeepSized />
      </MapContainer>
    </Box>
  );
}
