/**
 * The phone number input (docs/PRODUCT.md#phone-numbers): a leading 0 fixed by the mask, then up to 10
 * digits. imask is fetched when the input first appears, so it is not part of the first load;
 * until then the input keeps digits only. Left to right in every language, numeric keypad on touch.
 */
import { Input, type InputProps } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { PHONE_MASK, phoneDigits } from '../../contract';

/** 0 and at most 10 digits after it. */
const MAX_DIGITS = 11;

interface MaskHandle {
  value: string;
  destroy(): void;
}

export interface PhoneInputProps extends Omit<InputProps, 'value' | 'defaultValue' | 'onChange' | 'type'> {
  value: string;
  onValueChange(value: string): void;
}

export function PhoneInput({ value, onValueChange, size = 'lg', ...props }: PhoneInputProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const maskRef = useRef<MaskHandle | null>(null);
  const onValueChangeRef = useRef(onValueChange);
  const [masked, setMasked] = useState(false);

  useEffect(() => {
    onValueChangeRef.current = onValueChange;
  });

  useEffect(() => {
    let cancelled = false;
    void import('imask')
      .then(({ default: IMask }) => {
        const element = inputRef.current;
        if (cancelled || !element) return;
        const mask = IMask(element, { mask: PHONE_MASK });
        mask.on('accept', () => onValueChangeRef.current(mask.value));
        maskRef.current = mask;
        setMasked(true);
      })
      .catch(() => {
        // Offline before the chunk was cached: the digits-only fallback stays in place.
      });
    return () => {
      cancelled = true;
      maskRef.current?.destroy();
      maskRef.current = null;
    };
  }, []);

  // A value set from outside (a form reset) reaches the input and the mask.
  useEffect(() => {
    const mask = maskRef.current;
    if (mask) {
      if (mask.value !== value) mask.value = value;
      return;
    }
    const element = inputRef.current;
    if (element && element.value !== value) element.value = value;
  }, [value, masked]);

  return (
    <Input
      ref={inputRef}
      size={size}
      type="tel"
      inputMode="tel"
      autoComplete="tel"
      dir="ltr"
      textAlign="start"
      placeholder="0XXXXXXXXX"
      defaultValue={value}
      data-masked={masked ? 'true' : undefined}
      onChange={(event) => {
        if (maskRef.current) return;
        const digits = phoneDigits(event.target.value).slice(0, MAX_DIGITS);
        if (digits !== event.target.value) event.target.value = digits;
        onValueChangeRef.current(digits);
      }}
      {...props}
    />
  );
}
