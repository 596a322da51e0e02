/**
 * A checkbox the browser draws, in the brand's colour. The first screens use it (the sign-in's
 * "remember me", the entry form's consent): Chakra's checkbox brings Zag's machine and runtime, about
 * 10 KB of gzip JavaScript that a first load would carry for one box (docs/ARCHITECTURE.md#start-up).
 * The whole label is the touch target, at least 44 px high; the keyboard and assistive technology get
 * a native checkbox. Inside a Chakra `Field.Root` it takes the field's id, invalid state and error
 * text link, like Chakra's own inputs.
 */
import { chakra, useFieldContext } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface PlainCheckboxProps {
  name: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  children: ReactNode;
}

/** What the surrounding field says of its control, without `required` (the form says what is missing, not the browser). */
function useFieldAttributes() {
  const field = useFieldContext();
  if (!field) return {};
  const props = field.getInputProps();
  return {
    id: props.id,
    'aria-describedby': props['aria-describedby'],
    'aria-errormessage': props['aria-errormessage'],
    'aria-invalid': props['aria-invalid'],
    'aria-required': field.required || undefined,
  };
}

export function PlainCheckbox({ name, checked, onCheckedChange, children }: PlainCheckboxProps) {
  const fieldAttributes = useFieldAttributes();
  return (
    <chakra.label display="inline-flex" alignItems="center" gap="2.5" minHeight="44px" cursor="pointer">
      <chakra.input
        type="checkbox"
        name={name}
        checked={checked}
        onChange={(event) => onCheckedChange(event.target.checked)}
        {...fieldAttributes}
        boxSize="5"
        flexShrink={0}
        margin="0"
        cursor="pointer"
        css={{
          accentColor: 'var(--chakra-colors-brand-solid)',
          '&[aria-invalid=true]': { outline: '2px solid var(--chakra-colors-border-error)', outlineOffset: '1px' },
        }}
      />
      {children}
    </chakra.label>
  );
}
