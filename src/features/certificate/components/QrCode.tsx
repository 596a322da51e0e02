/**
 * A QR code of an address, drawn as one SVG path (uqr's encoder, in this page's chunk only). Always
 * dark modules on white, in any colour mode: that is what every scanner reads.
 */
import { useMemo } from 'react';
import { encode } from 'uqr';

/** The dark modules as one path of unit squares, on a grid of `size` modules (the quiet zone included). */
function modulesOf(text: string): { size: number; path: string } {
  // M: a printed code still scans with a fold or a smudge; a page's address fits well within it.
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  const squares = data.flatMap((row, y) => row.flatMap((dark, x) => (dark ? [`M${x} ${y}h1v1h-1z`] : [])));
  return { size, path: squares.join('') };
}

export function QrCode({ value, label }: { value: string; label: string }) {
  const { size, path } = useMemo(() => modulesOf(value), [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width="100%"
      height="100%"
      shapeRendering="crispEdges"
      data-value={value}
      // A picture, not an icon: any size is right for it (the layout gate's audit).
      data-illustration=""
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
