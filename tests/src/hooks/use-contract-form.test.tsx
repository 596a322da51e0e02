/**
 * The form hook every form uses (src/hooks/use-contract-form.ts): when a message shows, what a
 * submit does with problems, the server's messages, and the busy state.
 */
import { Checkbox, Field } from '@chakra-ui/react';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { email, newPassword, type ApiFailure, type ErrorCode } from '../../../contract';
import { EmailInput } from '../../../src/components/ui/email-input';
import { FormField } from '../../../src/components/ui/form-field';
import { PasswordInput } from '../../../src/components/ui/password-input';
import { useContractForm, type ContractForm, type ContractFormOptions } from '../../../src/hooks/use-contract-form';
import { errorMessage } from '../../../src/lib/error-messages';
import { i18n, type Locale } from '../../../src/lib/i18n';
import { renderWithApp } from '../render';
import { fieldErrorBeside, fieldErrorOf } from '../support/api';

/** The schema lists the password first; the form shows the email first. */
const schema = z.object({
  password: newPassword,
  email,
  accepted: z.literal(true, { error: 'privacy_required' satisfies ErrorCode }),
  token: z.string().check(z.minLength(1, { error: 'token_invalid' satisfies ErrorCode })),
});

interface Values {
  email: string;
  password: string;
  accepted: boolean;
}

const EMPTY: Values = { email: '', password: '', accepted: false };
const words = (code: ErrorCode) => errorMessage(i18n, code);
const refused = (fields: Record<string, string>): ApiFailure => ({
  code: 400,
  status: 'error',
  error: { type: 'validation', message: 'Non', fields },
});

let send: ReturnType<typeof vi.fn<(values: Values) => Promise<void>>>;
let form: ContractForm<Values>;

/** The form has no token field: the schema's problem with it is not the form's to show. */
const trimmed: ContractFormOptions<Values> = { input: (values) => ({ ...values, email: values.email.trim() }) };

function TestForm({ options = trimmed }: { options?: ContractFormOptions<Values> }) {
  form = useContractForm(schema, EMPTY, options);
  return (
    <form noValidate onSubmit={(event) => form.submit(event, send)}>
      <FormField label="E-mail" error={form.error('email')}>
        <EmailInput {...form.input('email')} />
      </FormField>
      <FormField label="Mot de passe" error={form.error('password')}>
        <PasswordInput {...form.input('password')} />
      </FormField>
      <Field.Root invalid={Boolean(form.error('accepted'))}>
        <Checkbox.Root
          checked={form.values.accepted}
          onCheckedChange={(details) => form.pick('accepted', details.checked === true)}
        >
          <Checkbox.HiddenInput name="accepted" />
          <Checkbox.Control />
          <Checkbox.Label>J’accepte</Checkbox.Label>
        </Checkbox.Root>
        {form.error('accepted') && <Field.ErrorText>{form.error('accepted')}</Field.ErrorText>}
      </Field.Root>
      <button type="submit" data-loading={form.submitting || undefined}>
        Envoyer
      </button>
    </form>
  );
}

const emailInput = () => screen.getByLabelText('E-mail');
const passwordInput = () => screen.getByLabelText('Mot de passe');
const checkbox = () => screen.getByRole('checkbox', { name: 'J’accepte' });
const submitButton = () => screen.getByRole('button', { name: 'Envoyer' });

async function renderForm(options?: ContractFormOptions<Values>, locale: Locale = 'fr') {
  await renderWithApp(<TestForm options={options} />, { locale });
  return userEvent.setup({ delay: null });
}

beforeEach(() => {
  send = vi.fn(() => Promise.resolve());
});

describe('useContractForm', () => {
  it('keeps a field quiet until it is left, then follows every change', async () => {
    const user = await renderForm();
    await user.type(emailInput(), 'garage');
    expect(fieldErrorOf(emailInput())).toBeNull();
    await user.tab();
    // The field links its error text to the input once the text is there (failed without waiting under CI load).
    await waitFor(() => expect(fieldErrorOf(emailInput())).toBe(words('email_invalid')));
    expect(fieldErrorOf(passwordInput())).toBeNull();
    await user.type(emailInput(), '@example.dz');
    await waitFor(() => expect(fieldErrorOf(emailInput())).toBeNull());
    await user.clear(emailInput());
    await waitFor(() => expect(fieldErrorOf(emailInput())).toBe(words('email_required')));
  });

  it('says nothing when a field nobody changed since the reset is left, and follows its changes after', async () => {
    const user = await renderForm();
    await user.click(emailInput());
    await user.tab();
    expect(fieldErrorOf(emailInput())).toBeNull();
    await user.type(emailInput(), 'garage');
    await user.tab();
    await waitFor(() => expect(fieldErrorOf(emailInput())).toBe(words('email_invalid')));
    // Emptied as after a saved entry, the focus back in the field: the next tap elsewhere raises nothing.
    act(() => form.reset());
    await waitFor(() => expect(fieldErrorOf(emailInput())).toBeNull());
    await user.click(emailInput());
    await user.tab();
    expect(fieldErrorOf(emailInput())).toBeNull();
    await user.type(emailInput(), 'x');
    await user.tab();
    await waitFor(() => expect(fieldErrorOf(emailInput())).toBe(words('email_invalid')));
  });

  it('shows a choice’s message as soon as it is made', async () => {
    const user = await renderForm();
    await user.click(checkbox());
    expect(fieldErrorBeside(checkbox())).toBeNull();
    await user.click(checkbox());
    expect(fieldErrorBeside(checkbox())).toBe(words('privacy_required'));
  });

  it('on submit with problems shows every message, sends nothing and focuses the first field in the form', async () => {
    const user = await renderForm();
    await user.type(passwordInput(), 'court');
    await user.click(submitButton());
    await waitFor(() => {
      expect(fieldErrorOf(emailInput())).toBe(words('email_required'));
      expect(fieldErrorOf(passwordInput())).toBe(words('password_too_short'));
    });
    expect(fieldErrorBeside(checkbox())).toBe(words('privacy_required'));
    expect(document.activeElement).toBe(emailInput());
    expect(send).not.toHaveBeenCalled();
  });

  it('sends the valid values once, busy meanwhile; the schema input ignores problems of fields the form lacks', async () => {
    let finish: () => void = () => undefined;
    send.mockImplementation(() => new Promise<void>((resolve) => (finish = resolve)));
    const user = await renderForm();
    await user.type(emailInput(), 'garage@example.dz');
    await user.type(passwordInput(), 'motdepasse1');
    await user.click(checkbox());
    await user.click(submitButton());
    await user.click(submitButton());
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith({ email: 'garage@example.dz', password: 'motdepasse1', accepted: true });
    expect(submitButton().hasAttribute('data-loading')).toBe(true);
    await act(async () => finish());
    await waitFor(() => expect(submitButton().hasAttribute('data-loading')).toBe(false));
  });

  it('adds the rules of `check` after the schema’s own', async () => {
    const user = await renderForm({
      ...trimmed,
      check: (values) => ({
        password: values.password === values.email ? 'passwords_mismatch' : undefined,
        email: 'email_taken',
      }),
    });
    await user.click(submitButton());
    await waitFor(() => {
      expect(fieldErrorOf(passwordInput())).toBe(words('password_required'));
      expect(fieldErrorOf(emailInput())).toBe(words('email_required'));
    });
    await user.type(emailInput(), 'garage@example.dz');
    await waitFor(() => expect(fieldErrorOf(emailInput())).toBe(words('email_taken')));
  });

  it('shows the server’s messages until their own field changes', async () => {
    const user = await renderForm();
    act(() => form.showServerErrors(refused({ email: 'Adresse déjà prise', password: 'Trop simple' })));
    // The field links its message once it has seen it rendered.
    await waitFor(() => {
      expect(fieldErrorOf(emailInput())).toBe('Adresse déjà prise');
      expect(fieldErrorOf(passwordInput())).toBe('Trop simple');
    });
    await user.type(passwordInput(), 'motdepasse1');
    expect(fieldErrorOf(passwordInput())).toBeNull();
    expect(fieldErrorOf(emailInput())).toBe('Adresse déjà prise');
  });

  it('reset brings the values back and hides every message', async () => {
    const user = await renderForm();
    await user.type(emailInput(), 'garage');
    await user.click(submitButton());
    act(() => form.showServerErrors(refused({ accepted: 'Non' })));
    const messages = () => document.querySelectorAll('[data-part="error-text"]').length;
    expect(messages()).toBe(3);
    act(() => form.reset());
    expect(emailInput()).toHaveProperty('value', '');
    expect(messages()).toBe(0);
  });

  it('words the messages in the active language', async () => {
    const user = await renderForm(trimmed, 'en');
    await user.click(submitButton());
    await waitFor(() => expect(fieldErrorOf(emailInput())).toBe('Email address is required'));
  });
});
