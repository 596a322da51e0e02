/**
 * Set a new password from the emailed link (docs/PRODUCT.md#reset-password). The
 * token is read from the query string once, then taken out of the address so it does not stay
 * in the history or leak through a shared screen.
 */
import { Button, Stack } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { fieldErrors, RESET_TOKEN_PREFIX, resetPasswordPayload } from '../../../../contract';
import { paths } from '../../../app/paths';
import { FormField } from '../../../components/ui/form-field';
import { PasswordInput } from '../../../components/ui/password-input';
import { notify } from '../../../components/ui/toaster';
import { errorMessage, fieldErrorMessages, OPERATION_FAILED, OPERATION_SUCCEEDED } from '../../../lib/error-messages';
import { useUnsavedInput } from '../../../lib/unsaved';
import { resetPassword } from '../api/resetPassword';
import { AuthCard, BackToSignInLink } from '../components/AuthCard';

/** docs/PRODUCT.md#business-constants: the way back to sign-in after a successful reset. */
export const RESET_REDIRECT_DELAY_MS = 1000;

type Errors = Partial<Record<'new_password' | 'confirm_password', string>>;

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
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
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
    queueMicrotask(() => notify.error(operationFailed()));
    navigate(paths.login, { replace: true });
    // Once, on arrival: the token never changes afterwards.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate(paths.login, { replace: true }), RESET_REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || done || !token) return;
    const payload = { new_password: newPassword, confirm_password: confirmPassword, token };
    const found = fieldErrorMessages(i18n, fieldErrors(resetPasswordPayload, payload)) as Errors & { token?: string };
    delete found.token;
    if (confirmPassword !== newPassword) found.confirm_password = errorMessage(i18n, 'passwords_mismatch');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    const result = await resetPassword(payload);
    setSubmitting(false);
    if (result.status === 'success') {
      notify.success(i18n._(OPERATION_SUCCEEDED));
      setDone(true);
      return;
    }
    notify.error(operationFailed(), result.code === 0 ? undefined : result.error?.message);
  };

  if (!valid) return null;

  return (
    <AuthCard
      title={<Trans>Nouveau mot de passe</Trans>}
      lead={<Trans>Choisissez le nouveau mot de passe de votre compte.</Trans>}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <FormField
            label={<Trans>Nouveau mot de passe</Trans>}
            error={errors.new_password}
            helper={<Trans>8 caractères au moins</Trans>}
            required
          >
            <PasswordInput
              name="new_password"
              autoComplete="new-password"
              value={newPassword}
              onChange={(event) => {
                setNewPassword(event.target.value);
                setErrors(({ new_password: _ignored, ...rest }) => rest);
              }}
            />
          </FormField>
          <FormField label={<Trans>Confirmer le mot de passe</Trans>} error={errors.confirm_password} required>
            <PasswordInput
              name="confirm_password"
              autoComplete="new-password"
              value={confirmPassword}
              onChange={(event) => {
                setConfirmPassword(event.target.value);
                setErrors(({ confirm_password: _ignored, ...rest }) => rest);
              }}
            />
          </FormField>
          <Button type="submit" size="lg" colorPalette="brand" loading={submitting || done} width="full">
            <Trans>Confirmer</Trans>
          </Button>
          <BackToSignInLink />
        </Stack>
      </form>
    </AuthCard>
  );
}
