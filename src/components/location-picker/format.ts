import type { Location } from '../../../contract';

/** Six decimals is about 10 cm: more than a garage needs, less noise than a map click gives. */
export function roundCoordinate(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** "latitude, longitude", as the portal shows a location (docs/PRODUCT.md#location-picker-dialog): "36, 3", "36.76375, 3.05176". */
export function formatCoordinates(location: Pick<Location, 'latitude' | 'longitude'>): string {
  return `${roundCoordinate(location.latitude)}, ${roundCoordinate(location.longitude)}`;
}

export function sameLocation(a: Location | null | undefined, b: Location | null | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    roundCoordinate(a.latitude) === roundCoordinate(b.latitude) &&
    roundCoordinate(a.longitude) === roundCoordinate(b.longitude) &&
    (a.address ?? null) === (b.address ?? null)
  );
}
