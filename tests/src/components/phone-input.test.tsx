/**
 * The phone input behind a form whose renders lag behind typing (a busy tablet): what was typed is
 * never overwritten by an older value coming back, and a value set from outside still arrives.
 */
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { PhoneInput } from '../../../src/components/PhoneInput';
import { renderWithApp } from '../render';

let resetFromOutside: (value: string) => void = () => undefined;
/** The form's late updates still to come: none may outlive its test (the page is gone by then). */
const lateUpdates = new Set<ReturnType<typeof setTimeout>>();
afterEach(() => {
  for (const timer of lateUpdates) clearTimeout(timer);
  lateUpdates.clear();
});

/** A form that takes each reported value 30 ms late, as a slow render would. */
function LaggingForm() {
  const [value, setValue] = useState('');
  resetFromOutside = setValue;
  return (
    <PhoneInput
      aria-label="Téléphone"
      value={value}
      onValueChange={(next) => {
        const timer = setTimeout(() => {
          lateUpdates.delete(timer);
          setValue(next);
        }, 30);
        lateUpdates.add(timer);
      }}
    />
  );
}

async function renderMasked(): Promise<HTMLInputElement> {
  await renderWithApp(<LaggingForm />);
  const input = screen.getByRole<HTMLInputElement>('textbox', { name: 'Téléphone' });
  await waitFor(() => expect(input.dataset.masked).toBe('true'));
  return input;
}

describe('phone input', () => {
  it('keeps every digit typed while the form lags behind', async () => {
    const input = await renderMasked();
    await userEvent.type(input, '555123456', { delay: 5 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(input.value).toBe('0555123456');
  });

  it('still takes a value set from outside, once the form has caught up', async () => {
    const input = await renderMasked();
    await userEvent.type(input, '555', { delay: 5 });
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    act(() => resetFromOutside(''));
    await waitFor(() => expect(input.value).toBe(''));
  });
});
