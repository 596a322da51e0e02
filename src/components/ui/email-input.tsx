/**
 * An email address field: the email keyboard on tablets, and always written left to right (an
 * address reads the same in Arabic), starting on the reading side.
 */
import { Input, type InputProps } from '@chakra-ui/react';
import type { Ref } from 'react';

export interface EmailInputProps extends Omit<InputProps, 'type' | 'inputMode' | 'dir'> {
  ref?: Ref<HTMLInputElement>;
  /** "username" on the sign-in form, so password managers pair it with the password. */
  autoComplete?: 'email' | 'username';
}

export function EmailInput({ ref, size = 'lg', autoComplete = 'email', ...props }: EmailInputProps) {
  return (
    <Input
      ref={ref}
      size={size}
      type="email"
      autoComplete={autoComplete}
      inputMode="email"
      dir="ltr"
      textAlign="start"
      {...props}
    />
  );
}
