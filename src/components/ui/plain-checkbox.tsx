/**
 * A checkbox the browser draws, in the brand's colour. /login uses it: Chakra's checkbox brings Zag's
 * machine and runtime, about 10 KB of gzip JavaScript that the sign-in screen would load for one box
 * (docs/ARCHITECTURE.md#start-up). The whole label is the touch target, at least 44 px high; the
 * keyboard and assistive technology get a native checkbox.
 */
import { chakra } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface PlainCheckboxProps {
  name: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  children: ReactNode;
}

export function PlainCheckbox({ name, checked, onCheckedChange, children }: PlainCheckboxProps) {
  return (
    <chakra.label display="inline-flex" alignItems="center" gap="2.5" minHeight="44px" cursor="pointer">
      <chakra.input
        type="checkbox"
        name={name}
        checked={checked}
        onChange={(event) => onCheckedChange(event.target.checked)}
        boxSize="5"
        margin="0"
        cursor="pointer"
        css={{ accentColor: 'var(--chakra-colors-brand-solid)' }}
      />
      {children}
    </chakra.label>
  );
}
