/** Partner registration (docs/PRODUCT.md#register, docs/PRODUCT.md#phone-numbers). */
import { Button, Checkbox, Field, Input, Link, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import {
  fieldErrors,
  phoneDigits,
  REGISTRATION_DEFAULT_LOCATION,
  registerPayload,
  type Location,
  type RegisterPayload,
} from '../../../../contract';
import { paths } from '../../../app/paths';
import { PhoneInput } from '../../../components/PhoneInput';
import { AppLink } from '../../../components/ui/app-link';
import { EmailInput } from '../../../components/ui/email-input';
import { FormField } from '../../../components/ui/form-field';
import { PasswordInput } from '../../../components/ui/password-input';
import { notify } from '../../../components/ui/toaster';
import { apiFailureMessage, apiFieldErrors, errorMessage, fieldErrorMessages } from '../../../lib/error-messages';
import { establishSession } from '../../../lib/session';
import { useUnsavedInput } from '../../../lib/unsaved';
import { LocationField } from '../../location-picker';
import { registerPartner } from '../api/registerPartner';
import { AuthCard } from '../components/AuthCard';

type FieldName = 'full_name' | 'phone_number' | 'email' | 'password' | 'location' | 'privacy_conditions';
type Errors = Partial<Record<FieldName, string>>;

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

export default function RegisterPage() {
  const { t, i18n } = useLingui();
  const [, navigate] = useLocation();
  const [form, setForm] = useState<Form>(INITIAL);
  const [errors, setErrors] = useState<Errors>({});
  const [attempted, setAttempted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  useUnsavedInput(form !== INITIAL);

  const validate = (values: Form): Errors => {
    const found = fieldErrorMessages(i18n, fieldErrors(registerPayload, toPayload(values))) as Errors;
    if (!values.privacy_conditions) found.privacy_conditions = errorMessage(i18n, 'privacy_required');
    return found;
  };

  const set = <K extends keyof Form>(field: K, value: Form[K]) => {
    const next = { ...form, [field]: value };
    setForm(next);
    // After a first attempt the errors follow the input; before it, the form stays quiet.
    if (attempted) setErrors(validate(next));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    setAttempted(true);
    const found = validate(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    const result = await registerPartner(toPayload(form));
    if (result.status === 'success') {
      notify.success(t({ id: 'register_success_message', message: 'Votre compte partenaire a été créé. Bienvenue !' }));
      await establishSession(result.data);
      navigate(paths.dashboard, { replace: true });
      return;
    }
    setSubmitting(false);
    setErrors(apiFieldErrors(result) as Errors);
    notify.error(apiFailureMessage(i18n, result));
  };

  return (
    <AuthCard title={<Trans>Créer un compte partenaire</Trans>}>
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <FormField label={<Trans>Nom complet</Trans>} error={errors.full_name} required>
            <Input
              size="lg"
              name="full_name"
              autoComplete="name"
              value={form.full_name}
              onChange={(event) => set('full_name', event.target.value)}
            />
          </FormField>
          <FormField
            label={<Trans>Numéro de téléphone</Trans>}
            error={errors.phone_number}
            helper={<Trans>0 suivi de 8 à 10 chiffres</Trans>}
            required
          >
            <PhoneInput
              name="phone_number"
              value={form.phone_number}
              onValueChange={(value) => set('phone_number', value)}
            />
          </FormField>
          <FormField label={<Trans>E-mail</Trans>} error={errors.email} required>
            <EmailInput name="email" value={form.email} onChange={(event) => set('email', event.target.value)} />
          </FormField>
          <FormField
            label={<Trans>Mot de passe</Trans>}
            error={errors.password}
            helper={<Trans>8 caractères au moins</Trans>}
            required
          >
            <PasswordInput
              name="password"
              autoComplete="new-password"
              value={form.password}
              onChange={(event) => set('password', event.target.value)}
            />
          </FormField>
          <LocationField
            name="location"
            label={<Trans>Localisation (latitude, longitude)</Trans>}
            value={form.location}
            onChange={(location) => set('location', location)}
            error={errors.location}
            required
          />
          <Field.Root invalid={Boolean(errors.privacy_conditions)} required>
            <Checkbox.Root
              size="lg"
              alignItems="flex-start"
              minHeight="44px"
              checked={form.privacy_conditions}
              onCheckedChange={(details) => set('privacy_conditions', details.checked === true)}
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
            {errors.privacy_conditions && <Field.ErrorText>{errors.privacy_conditions}</Field.ErrorText>}
          </Field.Root>
          <Button type="submit" size="lg" colorPalette="brand" loading={submitting} width="full">
            <Trans>S’inscrire</Trans>
          </Button>
          <Text textAlign="center">
            <Trans>Déjà inscrit ?</Trans>{' '}
            <AppLink href={paths.login}>
              <Trans>Se connecter</Trans>
            </AppLink>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
