/**
 * Set a new password from the emailed link (docs/PRODUCT.md#reset-password). The
 * token is read from the query string once, then taken out of the address so it does not stay
 * in the history or leak through a shared screen.
 */
import { Button, Stack } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { RESET_TOKEN_PREFIX, resetPasswordPayload } from '../../../../contract';
import { paths } from '../../../config/paths';
import { FormField } from '../../../components/ui/form-field';
import { PasswordInput } from '../../../components/ui/password-input';
import { notify } from '../../../components/ui/toaster';
import { useContractForm } from '../../../hooks/use-contract-form';
import { OPERATION_FAILED, OPERATION_SUCCEEDED } from '../../../lib/error-messages';
import { useUnsavedInput } from '../../../lib/unsaved';
import { resetPassword } from '../api/reset-password';
import { AuthCard, BackToSignInLink } from '../components/AuthCard';
import { AppForm } from '../../../components/ui/app-form';

/** docs/PRODUCT.md#business-constants: the way back to sign-in after a successful reset. */
export const RESET_REDIRECT_DELAY_MS = 1000;

const INITIAL = { new_password: '', confirm_password: '' };

function readToken(): string | null {
  return new URLSearchParams(window.location.search).get('token');
}

function removeTokenFromAddress() {
  const url = new URL(window.location.href);
  if (!url.searchParams.has('token')) return;
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

export default function ResetPasswordPage() {
  const { i18n } = useLingui();
  const [, navigate] = useLocation();
  const [token] = useState(readToken);
  const valid = token !== null && token.startsWith(RESET_TOKEN_PREFIX);
  // The token goes along to be checked with the rest; its own rule was applied on arrival.
  const form = useContractForm(resetPasswordPayload, INITIAL, { input: (values) => ({ ...values, token }) });
  const [done, setDone] = useState(false);
  const rejected = useRef(false);
  // The token has left the address bar: a reload would lose it.
  useUnsavedInput(valid && !done);

  const operationFailed = () => i18n._(OPERATION_FAILED);

  useEffect(() => {
    removeTokenFromAddress();
    if (valid || rejected.current) return;
    rejected.current = true;
    // After the commit: the toaster must not update while React is still rendering this page.
    queueMicrotask(() => notify.error(operationFailed));
    navigate(paths.login, { replace: true });
    // Once, on arrival: the token never changes afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate(paths.login, { replace: true }), RESET_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const submit = (event: FormEvent<HTMLFormElement>) =>
    form.submit(event, async (values) => {
      if (done || !token) return;
      const result = await resetPassword({ ...values, token });
      if (result.status === 'success') {
        notify.success(() => i18n._(OPERATION_SUCCEEDED));
        setDone(true);
        return;
      }
      notify.error(operationFailed, result.code === 0 ? undefined : result.error?.message);
    });

  if (!valid) return null;

  return (
    <AuthCard
      title={<Trans>Nouveau mot de passe</Trans>}
      lead={<Trans>Choisissez le nouveau mot de passe de votre compte.</Trans>}
    >
      <AppForm onSubmit={submit}>
        <Stack gap="4">
          <FormField
            label={<Trans>Nouveau mot de passe</Trans>}
            error={form.error('new_password')}
            helper={<Trans>8 caractères au moins</Trans>}
            required
          >
            <PasswordInput autoComplete="new-password" {...form.input('new_password')} />
          </FormField>
          <FormField label={<Trans>Confirmer le mot de passe</Trans>} error={form.error('confirm_password')} required>
            <PasswordInput autoComplete="new-password" {...form.input('confirm_password')} />
          </FormField>
          <Button type="submit" size="lg" colorPalette="brand" loading={form.submitting || done} width="full">
            <Trans>Confirmer</Trans>
          </Button>
          <BackToSignInLink />
        </Stack>
      </AppForm>
    </AuthCard>
  );
}
