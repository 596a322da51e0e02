/** Request a reset link (docs/PRODUCT.md#forgot-password). */
import { OPERATION_FAILED } from '../../../lib/error-messages';
import { Button, Stack } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { fieldErrors, forgotPasswordPayload } from '../../../../contract';
import { paths } from '../../../app/paths';
import { EmailInput } from '../../../components/ui/email-input';
import { FormField } from '../../../components/ui/form-field';
import { notify } from '../../../components/ui/toaster';
import { fieldErrorMessages } from '../../../lib/error-messages';
import { useUnsavedInput } from '../../../lib/unsaved';
import { forgotPassword } from '../api/forgotPassword';
import { AuthCard, BackToSignInLink } from '../components/AuthCard';

export default function ForgotPasswordPage() {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);
  useUnsavedInput(email !== '');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const payload = { email: email.trim() };
    const found = fieldErrorMessages(i18n, fieldErrors(forgotPasswordPayload, payload));
    setError(found.email);
    if (found.email) return;
    setSubmitting(true);
    const result = await forgotPassword(payload);
    if (result.status === 'success') {
      notify.success(t({ id: 'email_sent', message: 'E-mail envoyé' }));
      navigate(paths.login);
      return;
    }
    setSubmitting(false);
    notify.error(i18n._(OPERATION_FAILED), result.code === 0 ? undefined : result.error?.message);
  };

  return (
    <AuthCard
      title={<Trans>Mot de passe oublié</Trans>}
      lead={
        <Trans>
          Saisissez l’adresse e-mail de votre compte partenaire : nous vous enverrons un lien pour choisir un nouveau
          mot de passe. Le lien est valable 30 minutes.
        </Trans>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <FormField label={<Trans>E-mail</Trans>} error={error} required>
            <EmailInput
              name="email"
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                setError(undefined);
              }}
            />
          </FormField>
          <Button type="submit" size="lg" colorPalette="brand" loading={submitting} width="full">
            <Trans>Envoyer le lien</Trans>
          </Button>
          <BackToSignInLink />
        </Stack>
      </form>
    </AuthCard>
  );
}
