/** Partner registration (docs/PRODUCT.md#register, docs/PRODUCT.md#phone-numbers). */
import { Button, Checkbox, Field, Input, Link, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { FormEvent } from 'react';
import { useLocation } from 'wouter';
import {
  phoneDigits,
  REGISTRATION_DEFAULT_LOCATION,
  registerPayload,
  type Location,
  type RegisterPayload,
} from '../../../../contract';
import { paths } from '../../../config/paths';
import { PhoneInput } from '../../../components/PhoneInput';
import { AppLink } from '../../../components/ui/app-link';
import { EmailInput } from '../../../components/ui/email-input';
import { FormField } from '../../../components/ui/form-field';
import { PasswordInput } from '../../../components/ui/password-input';
import { notify } from '../../../components/ui/toaster';
import { useContractForm } from '../../../hooks/use-contract-form';
import { apiFailureMessage } from '../../../lib/error-messages';
import { establishSession } from '../../../lib/session';
import { useUnsavedInput } from '../../../lib/unsaved';
import { LocationField } from '../../../components/location-picker';
import { registerPartner } from '../api/register-partner';
import { AuthCard } from '../components/AuthCard';
import { AppForm } from '../../../components/ui/app-form';

interface Form {
  full_name: string;
  phone_number: string;
  email: string;
  password: string;
  location: Location;
  privacy_conditions: boolean;
}

const INITIAL: Form = {
  full_name: '',
  phone_number: '',
  email: '',
  password: '',
  location: { ...REGISTRATION_DEFAULT_LOCATION },
  privacy_conditions: false,
};

function toPayload(form: Form): RegisterPayload {
  const location: Location = { latitude: form.location.latitude, longitude: form.location.longitude };
  if (form.location.address) location.address = form.location.address;
  return {
    email: form.email.trim(),
    full_name: form.full_name.trim(),
    location,
    password: form.password,
    phone_number: phoneDigits(form.phone_number),
    privacy_conditions: true,
  };
}

/** What the contract checks: the payload, with the acceptance as ticked (or not) rather than as sent. */
const toChecked = (form: Form) => ({ ...toPayload(form), privacy_conditions: form.privacy_conditions });

export default function RegisterPage() {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const form = useContractForm(registerPayload, INITIAL, { input: toChecked });
  const values = form.values;
  useUnsavedInput(values !== INITIAL);

  const submit = (event: FormEvent<HTMLFormElement>) =>
    form.submit(event, async (valid) => {
      const result = await registerPartner(toPayload(valid));
      if (result.status === 'success') {
        notify.success(
          t({ id: 'register_success_message', message: 'Votre compte partenaire a été créé. Bienvenue !' }),
        );
        await establishSession(result.data);
        navigate(paths.dashboard, { replace: true });
        return;
      }
      form.showServerErrors(result);
      notify.error(apiFailureMessage(i18n, result));
    });

  return (
    <AuthCard title={<Trans>Créer un compte partenaire</Trans>}>
      <AppForm onSubmit={submit}>
        <Stack gap="4">
          <FormField label={<Trans>Nom complet</Trans>} error={form.error('full_name')} required>
            <Input size="lg" autoComplete="name" {...form.input('full_name')} />
          </FormField>
          <FormField
            label={<Trans>Numéro de téléphone</Trans>}
            error={form.error('phone_number')}
            helper={<Trans>0 suivi de 8 à 10 chiffres</Trans>}
            required
          >
            <PhoneInput
              name="phone_number"
              value={values.phone_number}
              onValueChange={(value) => form.set('phone_number', value)}
              onBlur={() => form.leave('phone_number')}
            />
          </FormField>
          <FormField label={<Trans>E-mail</Trans>} error={form.error('email')} required>
            <EmailInput {...form.input('email')} />
          </FormField>
          <FormField
            label={<Trans>Mot de passe</Trans>}
            error={form.error('password')}
            helper={<Trans>8 caractères au moins</Trans>}
            required
          >
            <PasswordInput autoComplete="new-password" {...form.input('password')} />
          </FormField>
          <LocationField
            name="location"
            label={<Trans>Localisation (latitude, longitude)</Trans>}
            value={values.location}
            onChange={(location) => form.pick('location', location)}
            error={form.error('location')}
            required
          />
          <Field.Root invalid={Boolean(form.error('privacy_conditions'))} required>
            <Checkbox.Root
              size="lg"
              alignItems="flex-start"
              minHeight="44px"
              checked={values.privacy_conditions}
              onCheckedChange={(details) => form.pick('privacy_conditions', details.checked === true)}
            >
              <Checkbox.HiddenInput name="privacy_conditions" />
              <Checkbox.Control mt="0.5" />
              <Checkbox.Label>
                <Trans>
                  J’accepte les{' '}
                  <Link
                    href={paths.privacyConditions}
                    target="_blank"
                    rel="noopener"
                    color="brand.fg"
                    textDecoration="underline"
                    onClick={(event) => event.stopPropagation()}
                  >
                    conditions de confidentialité
                  </Link>
                </Trans>
              </Checkbox.Label>
            </Checkbox.Root>
            {form.error('privacy_conditions') && <Field.ErrorText>{form.error('privacy_conditions')}</Field.ErrorText>}
          </Field.Root>
          <Button type="submit" size="lg" colorPalette="brand" loading={form.submitting} width="full">
            <Trans>S’inscrire</Trans>
          </Button>
          <Text textAlign="center">
            <Trans>Déjà inscrit ?</Trans>{' '}
            <AppLink href={paths.login}>
              <Trans>Se connecter</Trans>
            </AppLink>
          </Text>
        </Stack>
      </AppForm>
    </AuthCard>
  );
}
