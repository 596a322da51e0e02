/**
 * The partner's own profile (docs/PRODUCT.md#profile, docs/API.md#patch-profile). Read-only
 * until Update; Cancel goes back to the stored values; Confirm sends only what changed, with the
 * current password when the email or the password changes.
 */
import { Avatar, Button, Card, Heading, HStack, IconButton, Input, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'wouter';
import { fieldErrors, profileUpdatePayload, type ProfileUpdatePayload, type User } from '../../../../contract';
import { paths } from '../../../app/paths';
import { PhoneInput } from '../../../components/PhoneInput';
import { EmailInput } from '../../../components/ui/email-input';
import { FormField } from '../../../components/ui/form-field';
import { CloseIcon } from '../../../components/ui/icons';
import { PasswordInput } from '../../../components/ui/password-input';
import { notify } from '../../../components/ui/toaster';
import { IMAGES_BASE } from '../../../lib/api/config';
import {
  apiFailureMessage,
  apiFieldErrors,
  errorMessage,
  fieldErrorMessages,
  OPERATION_SUCCEEDED,
} from '../../../lib/error-messages';
import { replaceUser, useSession } from '../../../lib/session';
import { useUnsavedInput } from '../../../lib/unsaved';
import { LocationField } from '../../location-picker';
import { updateProfile } from '../api/updateProfile';
import { formOf, profileChanges, type ProfileForm as Form } from '../profile-form';

type FieldName = 'full_name' | 'email' | 'phone_number' | 'location' | 'current_password' | 'new_password';
type Errors = Partial<Record<FieldName, string>>;

function pictureUrl(user: User): string | undefined {
  return user.picture ? `${IMAGES_BASE}/${encodeURIComponent(user.picture)}` : undefined;
}

export default function ProfilePage() {
  const { t, i18n } = useLingui();
  const { user } = useSession();
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<Form | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  useUnsavedInput(editing);

  if (!user) return null;
  const values = form ?? formOf(user);

  const set = <K extends keyof Form>(field: K, value: Form[K]) => {
    setForm({ ...values, [field]: value });
    setErrors(({ [field]: _ignored, ...rest }) => rest);
  };

  const startEditing = () => {
    setForm(formOf(user));
    setErrors({});
    setEditing(true);
  };

  const cancel = () => {
    setForm(null);
    setErrors({});
    setEditing(false);
  };

  const validate = (changes: ProfileUpdatePayload): Errors => {
    // Full name and email are required while editing, changed or not (docs/PRODUCT.md#validation-rules).
    const found = fieldErrorMessages(
      i18n,
      fieldErrors(profileUpdatePayload, {
        ...changes,
        full_name: values.full_name,
        email: values.email,
        location: values.location,
      }),
    ) as Errors;
    if (changes.current_password !== undefined && changes.current_password === '') {
      found.current_password = errorMessage(i18n, 'current_password_required');
    }
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const changes = profileChanges(user, values);
    const found = validate(changes);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (Object.keys(changes).length === 0) {
      notify.info(t`Aucune modification à enregistrer`);
      cancel();
      return;
    }
    setSubmitting(true);
    const result = await updateProfile(changes);
    setSubmitting(false);
    if (result.status === 'success') {
      // The stored user changes at once; its copy in IndexedDB follows.
      const stored = replaceUser(result.data);
      setEditing(false);
      setForm(null);
      notify.success(i18n._(OPERATION_SUCCEEDED));
      await stored;
      return;
    }
    setErrors(apiFieldErrors(result) as Errors);
    notify.error(apiFailureMessage(i18n, result));
  };

  const shown = editing ? values : formOf(user);
  const name = user.full_name;
  const picture = pictureUrl(user);

  return (
    <Card.Root maxWidth="2xl" mx="auto" width="full" variant="elevated">
      <Card.Header>
        <HStack justify="space-between" align="flex-start">
          <HStack gap="4" align="center" minWidth="0">
            <Avatar.Root size="2xl" colorPalette="brand">
              <Avatar.Fallback name={user.full_name} />
              {picture && <Avatar.Image src={picture} alt={t`Photo de ${name}`} />}
            </Avatar.Root>
            <Stack gap="0" minWidth="0">
              <Heading as="h1" size="xl">
                <Trans>Mon profil</Trans>
              </Heading>
              <Text color="fg.muted" truncate>
                {user.full_name}
              </Text>
            </Stack>
          </HStack>
          <IconButton asChild variant="ghost" size="lg" aria-label={t`Fermer`} title={t`Fermer`}>
            <RouterLink href={paths.dashboard}>
              <CloseIcon />
            </RouterLink>
          </IconButton>
        </HStack>
      </Card.Header>
      <Card.Body>
        <form onSubmit={submit} noValidate aria-label={t`Profil`}>
          <Stack gap="4">
            <FormField
              label={<Trans>Nom complet</Trans>}
              error={errors.full_name}
              required={editing}
              readOnly={!editing}
            >
              <Input
                size="lg"
                name="full_name"
                autoComplete="name"
                readOnly={!editing}
                value={shown.full_name}
                onChange={(event) => set('full_name', event.target.value)}
              />
            </FormField>
            <FormField label={<Trans>E-mail</Trans>} error={errors.email} required={editing} readOnly={!editing}>
              <EmailInput
                name="email"
                readOnly={!editing}
                value={shown.email}
                onChange={(event) => set('email', event.target.value)}
              />
            </FormField>
            <FormField
              label={<Trans>Numéro de téléphone</Trans>}
              error={errors.phone_number}
              helper={editing ? <Trans>0 suivi de 8 à 10 chiffres</Trans> : undefined}
              readOnly={!editing}
            >
              {editing ? (
                <PhoneInput
                  name="phone_number"
                  value={shown.phone_number}
                  onValueChange={(value) => set('phone_number', value)}
                />
              ) : (
                <Input size="lg" name="phone_number" readOnly dir="ltr" textAlign="start" value={shown.phone_number} />
              )}
            </FormField>
            <LocationField
              name="location"
              label={<Trans>Localisation (latitude, longitude)</Trans>}
              value={shown.location}
              onChange={(location) => set('location', location)}
              editable={editing}
              required={editing}
              error={errors.location}
            />
            {editing && (
              <>
                <FormField
                  label={<Trans>Mot de passe actuel</Trans>}
                  error={errors.current_password}
                  helper={<Trans>Requis pour changer l’e-mail ou le mot de passe</Trans>}
                >
                  <PasswordInput
                    name="current_password"
                    autoComplete="current-password"
                    value={values.current_password}
                    onChange={(event) => set('current_password', event.target.value)}
                  />
                </FormField>
                <FormField
                  label={<Trans>Nouveau mot de passe</Trans>}
                  error={errors.new_password}
                  helper={<Trans>Laissez vide pour garder le mot de passe actuel</Trans>}
                >
                  <PasswordInput
                    name="new_password"
                    autoComplete="new-password"
                    value={values.new_password}
                    onChange={(event) => set('new_password', event.target.value)}
                  />
                </FormField>
              </>
            )}
            <HStack justify="flex-end" gap="2" pt="2" wrap="wrap">
              {editing ? (
                <>
                  <Button type="button" size="lg" variant="outline" onClick={cancel} disabled={submitting}>
                    <Trans>Annuler</Trans>
                  </Button>
                  <Button type="submit" size="lg" colorPalette="brand" loading={submitting}>
                    <Trans>Confirmer</Trans>
                  </Button>
                </>
              ) : (
                <Button type="button" size="lg" colorPalette="brand" onClick={startEditing}>
                  <Trans>Modifier</Trans>
                </Button>
              )}
            </HStack>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}
