/** Request a reset link (docs/PRODUCT.md#forgot-password). */
import { OPERATION_FAILED } from '../../../lib/error-messages';
import { Button, Stack } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { FormEvent } from 'react';
import { useLocation } from 'wouter';
import { forgotPasswordPayload, type ForgotPasswordPayload } from '../../../../contract';
import { paths } from '../../../config/paths';
import { EmailInput } from '../../../components/ui/email-input';
import { FormField } from '../../../components/ui/form-field';
import { notify } from '../../../components/ui/toaster';
import { useContractForm } from '../../../hooks/use-contract-form';
import { useUnsavedInput } from '../../../lib/unsaved';
import { forgotPassword } from '../api/forgot-password';
import { AuthCard, BackToSignInLink } from '../components/AuthCard';
import { AppForm } from '../../../components/ui/app-form';

const toPayload = (values: ForgotPasswordPayload): ForgotPasswordPayload => ({ email: values.email.trim() });

export default function ForgotPasswordPage() {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const form = useContractForm(forgotPasswordPayload, { email: '' }, { input: toPayload });
  useUnsavedInput(form.values.email !== '');

  const submit = (event: FormEvent<HTMLFormElement>) =>
    form.submit(event, async (values) => {
      const result = await forgotPassword(toPayload(values));
      if (result.status === 'success') {
        notify.success(() => t({ id: 'email_sent', message: 'E-mail envoyé' }));
        navigate(paths.login);
        return;
      }
      notify.error(() => i18n._(OPERATION_FAILED), result.code === 0 ? undefined : result.error?.message);
    });

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
      <AppForm onSubmit={submit}>
        <Stack gap="4">
          <FormField label={<Trans>E-mail</Trans>} error={form.error('email')} required>
            <EmailInput {...form.input('email')} />
          </FormField>
          <Button type="submit" size="lg" colorPalette="brand" loading={form.submitting} width="full">
            <Trans>Envoyer le lien</Trans>
          </Button>
          <BackToSignInLink />
        </Stack>
      </AppForm>
    </AuthCard>
  );
}
