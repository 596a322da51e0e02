/**
 * The phone number input (docs/PRODUCT.md#phone-numbers): a leading 0 fixed by the mask, then up to 10
 * digits. imask is fetched when the input first appears, so it is not part of the first load;
 * until then the input keeps digits only. If it cannot be fetched, the digits-only input stays (it
 * accepts the same numbers, so no message stops the mechanic) and the next focus tries again. Left
 * to right in every language, numeric keypad on touch.
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

export function PhoneInput({ value, onValueChange, onFocus, size = 'lg', ...props }: PhoneInputProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const maskRef = useRef<MaskHandle | null>(null);
  const onValueChangeRef = useRef(onValueChange);
  const [masked, setMasked] = useState(false);
  /** Bumped to load imask again after a failed attempt. */
  const [maskAttempt, setMaskAttempt] = useState(0);
  const maskFailed = useRef(false);

  /**
   * The last value the input reported, until the form hands it back. While the form has not caught up
   * with typing (its renders lag behind fast keystrokes), a value it passes down is an older one of
   * ours, not a change from outside: writing it back would drop what was just typed.
   */
  const awaitedEcho = useRef<string | null>(null);
  const report = (next: string) => {
    // The same value as held comes back as no render at all: nothing to wait for.
    awaitedEcho.current = next === value ? null : next;
    onValueChangeRef.current(next);
  };
  const reportRef = useRef(report);

  useEffect(() => {
    onValueChangeRef.current = onValueChange;
    reportRef.current = report;
  });

  useEffect(() => {
    let cancelled = false;
    void import('imask')
      .then(({ default: IMask }) => {
        const element = inputRef.current;
        if (cancelled || !element) return;
        const mask = IMask(element, { mask: PHONE_MASK });
        mask.on('accept', () => reportRef.current(mask.value));
        maskRef.current = mask;
        setMasked(true);
      })
      .catch(() => {
        // The chunk could not be fetched: the digits-only fallback stays, until the next focus.
        maskFailed.current = true;
      });
    return () => {
      cancelled = true;
      maskRef.current?.destroy();
      maskRef.current = null;
    };
  }, [maskAttempt]);

  // A value set from outside (a form reset) reaches the input and the mask.
  useEffect(() => {
    if (awaitedEcho.current !== null) {
      if (value === awaitedEcho.current) awaitedEcho.current = null;
      return;
    }
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
        report(digits);
      }}
      onFocus={(event) => {
        if (maskFailed.current) {
          maskFailed.current = false;
          setMaskAttempt((attempt) => attempt + 1);
        }
        onFocus?.(event);
      }}
      {...props}
    />
  );
}
