/**
 * A location form field (registration, profile): read-only "latitude, longitude" text that opens
 * the picker when clicked or activated from the keyboard, with a map button beside it.
 */
import { IconButton, Input, InputGroup } from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import type { Location } from '../../../contract';
import { FormField } from '../ui/form-field';
import { PinIcon } from '../ui/icons';
import { formatCoordinates } from './format';
import { LocationPickerDialog } from './LocationPickerDialog';

export interface LocationFieldProps {
  label: ReactNode;
  value: Location;
  onChange(location: Location): void;
  /** When false the field only shows the location (the profile outside edit mode). */
  editable?: boolean;
  required?: boolean;
  error?: string | null;
  name?: string;
}

export function LocationField({ label, value, onChange, editable = true, required, error, name }: LocationFieldProps) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const openPicker = () => {
    if (editable) setOpen(true);
  };
  const pickLabel = t({ id: 'select_location', message: 'Choisir la localisation' });
  return (
    <>
      <FormField label={label} required={required} error={error} helper={value.address ?? undefined} readOnly>
        {/* Coordinates read left to right in every language, the map button after them. */}
        <InputGroup
          dir="ltr"
          endElementProps={{ px: '0' }}
          endElement={
            editable ? (
              <IconButton
                type="button"
                variant="ghost"
                size="lg"
                minWidth="44px"
                aria-label={pickLabel}
                title={pickLabel}
                onClick={openPicker}
              >
                <PinIcon />
              </IconButton>
            ) : undefined
          }
        >
          <Input
            size="lg"
            name={name}
            readOnly
            dir="ltr"
            textAlign="start"
            value={formatCoordinates(value)}
            // Read-only, yet the way to the map while editable: it keeps the look of a field to press.
            bg={editable ? 'bg' : undefined}
            cursor={editable ? 'pointer' : undefined}
            aria-haspopup={editable ? 'dialog' : undefined}
            onClick={openPicker}
            onKeyDown={(event) => {
              if (editable && (event.key === 'Enter' || event.key === ' ')) {
                event.preventDefault();
                openPicker();
              }
            }}
          />
        </InputGroup>
      </FormField>
      {editable && (
        <LocationPickerDialog open={open} initial={value} onConfirm={onChange} onClose={() => setOpen(false)} />
      )}
    </>
  );
}
