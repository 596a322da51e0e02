/**
 * A badge of Chakra's recipe, its classes resolved once (static-styles.ts): lists draw dozens of them.
 * The same CSS and class (`chakra-badge`) as Chakra's `<Badge size="md">` with the same palette and variant.
 */
import type { ReactNode } from 'react';
import { staticStyles, type StaticStyle } from './static-styles';

const PALETTES = ['green', 'orange', 'blue', 'red', 'purple', 'gray'] as const;
const VARIANTS = ['subtle', 'solid', 'outline'] as const;
export type BadgePalette = (typeof PALETTES)[number];
export type BadgeVariant = (typeof VARIANTS)[number];
type BadgeLook = `${BadgePalette}-${BadgeVariant}`;

const looks: Partial<Record<BadgeLook, StaticStyle>> = {};
for (const palette of PALETTES)
  for (const variant of VARIANTS)
    looks[`${palette}-${variant}`] = (system) => [
      system.getRecipeFn('badge')({ variant, size: 'md' }),
      { colorPalette: palette },
    ];
const useBadgeClasses = staticStyles(looks as Record<BadgeLook, StaticStyle>);

export function StaticBadge({
  palette,
  variant,
  children,
}: {
  palette: BadgePalette;
  variant: BadgeVariant;
  children: ReactNode;
}) {
  const classes = useBadgeClasses();
  return <span className={`chakra-badge ${classes[`${palette}-${variant}`]}`}>{children}</span>;
}
