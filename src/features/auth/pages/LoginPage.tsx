/** Sign in (docs/PRODUCT.md#login). */
import { Alert, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { FormEvent } from 'react';
import { useLocation } from 'wouter';
import { loginPayload, type LoginPayload } from '../../../../contract';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../components/ui/app-link';
import { EmailInput } from '../../../components/ui/email-input';
import { FormField } from '../../../components/ui/form-field';
import { PasswordInput } from '../../../components/ui/password-input';
import { PlainCheckbox } from '../../../components/ui/plain-checkbox';
import { notify } from '../../../components/ui/toaster';
import { useContractForm } from '../../../hooks/use-contract-form';
import { apiFailureMessage, errorMessage } from '../../../lib/error-messages';
import { establishSession, useSignedOutElsewhere } from '../../../lib/session';
import { useUnsavedInput } from '../../../lib/unsaved';
import { login } from '../api/login';
import { AuthCard } from '../components/AuthCard';
import { AppForm } from '../../../components/ui/app-form';

const INITIAL = { email: '', password: '', remember_me: false };
const toPayload = (values: typeof INITIAL): LoginPayload => ({ ...values, email: values.email.trim() });

export default function LoginPage() {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const form = useContractForm(loginPayload, INITIAL, { input: toPayload });
  const { email, password } = form.values;
  useUnsavedInput(email !== '' || password !== '');
  // This device's session was ended from another one (docs/PRODUCT.md#connected-devices): said until the next sign-in.
  const signedOutElsewhere = useSignedOutElsewhere();

  const submit = (event: FormEvent<HTMLFormElement>) =>
    form.submit(event, async (values) => {
      const result = await login(toPayload(values));
      if (result.status === 'success') {
        await establishSession(result.data);
        notify.success(() => t({ id: 'login_successful', message: 'Connexion réussie' }));
        navigate(paths.dashboard, { replace: true });
        return;
      }
      notify.error(apiFailureMessage(i18n, result));
    });

  return (
    <AuthCard title={<Trans>Connexion à l’espace partenaire</Trans>}>
      <AppForm onSubmit={submit}>
        <Stack gap="4">
          {signedOutElsewhere && (
            <Alert.Root status="warning" role="alert">
              <Alert.Indicator />
              {/* The words of the server's reason, session_revoked (src/lib/error-messages.ts). */}
              <Alert.Title>{errorMessage(i18n, 'session_revoked')}</Alert.Title>
            </Alert.Root>
          )}
          <FormField label={<Trans>E-mail</Trans>} error={form.error('email')} required>
            <EmailInput autoComplete="username" {...form.input('email')} />
          </FormField>
          <FormField label={<Trans>Mot de passe</Trans>} error={form.error('password')} required>
            <PasswordInput autoComplete="current-password" {...form.input('password')} />
          </FormField>
          <HStack justify="space-between" wrap="wrap" gap="2">
            <PlainCheckbox
              name="remember_me"
              checked={form.values.remember_me}
              onCheckedChange={(checked) => form.set('remember_me', checked)}
            >
              <Trans>Se souvenir de moi</Trans>
            </PlainCheckbox>
            <AppLink href={paths.forgotPassword}>
              <Trans>Mot de passe oublié ?</Trans>
            </AppLink>
          </HStack>
          <Button type="submit" size="lg" colorPalette="brand" loading={form.submitting} width="full">
            <Trans>Se connecter</Trans>
          </Button>
          <Text textAlign="center">
            <Trans>Pas encore de compte ?</Trans>{' '}
            <AppLink href={paths.register}>
              <Trans>Créer un compte partenaire</Trans>
            </AppLink>
          </Text>
        </Stack>
      </AppForm>
    </AuthCard>
  );
}
