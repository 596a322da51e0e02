/** A labelled form control with its help text and, when invalid, its error under it. */
import { Field } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface FormFieldProps {
  label: ReactNode;
  error?: string | null | undefined;
  helper?: ReactNode;
  required?: boolean;
  readOnly?: boolean;
  disabled?: boolean;
  children: ReactNode;
}

export function FormField({ label, error, helper, required, readOnly, disabled, children }: FormFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)} required={required} readOnly={readOnly} disabled={disabled}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {children}
      {helper && !error && <Field.HelperText>{helper}</Field.HelperText>}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
}
