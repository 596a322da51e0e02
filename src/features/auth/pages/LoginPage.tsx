/** Sign in (docs/PRODUCT.md#login). */
import { Button, Checkbox, HStack, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { fieldErrors, loginPayload, type LoginPayload } from '../../../../contract';
import { paths } from '../../../app/paths';
import { AppLink } from '../../../components/ui/app-link';
import { EmailInput } from '../../../components/ui/email-input';
import { FormField } from '../../../components/ui/form-field';
import { PasswordInput } from '../../../components/ui/password-input';
import { notify } from '../../../components/ui/toaster';
import { apiFailureMessage, fieldErrorMessages } from '../../../lib/error-messages';
import { establishSession } from '../../../lib/session';
import { useUnsavedInput } from '../../../lib/unsaved';
import { login } from '../api/login';
import { AuthCard } from '../components/AuthCard';

type Errors = Partial<Record<'email' | 'password', string>>;

export default function LoginPage() {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  useUnsavedInput(email !== '' || password !== '');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const payload: LoginPayload = { email: email.trim(), password, remember_me: rememberMe };
    const found = fieldErrorMessages(i18n, fieldErrors(loginPayload, payload)) as Errors;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    const result = await login(payload);
    if (result.status === 'success') {
      await establishSession(result.data);
      notify.success(t({ id: 'login_successful', message: 'Connexion réussie' }));
      navigate(paths.dashboard, { replace: true });
      return;
    }
    setSubmitting(false);
    notify.error(apiFailureMessage(i18n, result));
  };

  return (
    <AuthCard title={<Trans>Connexion à l’espace partenaire</Trans>}>
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <FormField label={<Trans>E-mail</Trans>} error={errors.email} required>
            <EmailInput
              name="email"
              autoComplete="username"
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                setErrors(({ email: _email, ...rest }) => rest);
              }}
            />
          </FormField>
          <FormField label={<Trans>Mot de passe</Trans>} error={errors.password} required>
            <PasswordInput
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
                setErrors(({ password: _password, ...rest }) => rest);
              }}
            />
          </FormField>
          <HStack justify="space-between" wrap="wrap" gap="2">
            <Checkbox.Root
              size="lg"
              minHeight="44px"
              checked={rememberMe}
              onCheckedChange={(details) => setRememberMe(details.checked === true)}
            >
              <Checkbox.HiddenInput name="remember_me" />
              <Checkbox.Control />
              <Checkbox.Label>
                <Trans>Se souvenir de moi</Trans>
              </Checkbox.Label>
            </Checkbox.Root>
            <AppLink href={paths.forgotPassword}>
              <Trans>Mot de passe oublié ?</Trans>
            </AppLink>
          </HStack>
          <Button type="submit" size="lg" colorPalette="brand" loading={submitting} width="full">
            <Trans>Se connecter</Trans>
          </Button>
          <Text textAlign="center">
            <Trans>Pas encore de compte ?</Trans>{' '}
            <AppLink href={paths.register}>
              <Trans>Créer un compte partenaire</Trans>
            </AppLink>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
