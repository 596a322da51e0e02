/**
 * The partner's own profile (docs/PRODUCT.md#profile, docs/API.md#patch-profile). Read-only
 * until Update; Cancel goes back to the stored values; Confirm sends only what changed, with the
 * current password when the email or the password changes, and with a new password whether the
 * other devices are signed out. Below it, the connected devices (docs/PRODUCT.md#connected-devices),
 * loaded on demand with their own words.
 */
import { Avatar, Button, Card, Heading, HStack, IconButton, Input, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'wouter';
import { profileUpdatePayload, type User } from '../../../../contract';
import { paths } from '../../../config/paths';
import { PhoneInput } from '../../../components/PhoneInput';
import { EmailInput } from '../../../components/ui/email-input';
import { FormField } from '../../../components/ui/form-field';
import { CloseIcon } from '../../../components/ui/icons';
import { PasswordInput } from '../../../components/ui/password-input';
import { notify } from '../../../components/ui/toaster';
import { IMAGES_BASE } from '../../../lib/api/config';
import { useContractForm } from '../../../hooks/use-contract-form';
import { apiFailureMessage, OPERATION_SUCCEEDED } from '../../../lib/error-messages';
import { replaceUser, useSession } from '../../../lib/session';
import { useUnsavedInput } from '../../../lib/unsaved';
import { LocationField } from '../../../components/location-picker';
import { updateProfile } from '../api/update-profile';
import { formOf, profileChanges, type ProfileForm } from '../profile-form';
import { AppForm } from '../../../components/ui/app-form';
import { LoadingSpinner } from '../../../components/ui/loading-spinner';
import { ChunkErrorBoundary } from '../../../components/ui/chunk-error-boundary';
import { retryableLazy } from '../../../components/ui/retryable-lazy';
import { SignOutOthersField } from '../devices/SignOutOthersField';

/** The devices section: its code and words load after the profile's form, in a place kept for them. */
const ConnectedDevices = retryableLazy<{ version: number }>(() => import('../devices/ConnectedDevices'));

function pictureUrl(user: User): string | undefined {
  return user.picture ? `${IMAGES_BASE}/${encodeURIComponent(user.picture)}` : undefined;
}

export default function ProfilePage() {
  const { user } = useSession();
  // A changed password may have signed the other devices out: their list is asked again.
  const [passwordChanges, setPasswordChanges] = useState(0);
  // The partner is known once the session is (the page shows in the header's frame until then).
  if (!user) return <LoadingSpinner />;
  return (
    <Stack gap="6" width="full">
      <Profile user={user} onPasswordChanged={() => setPasswordChanges((count) => count + 1)} />
      <ChunkErrorBoundary reset={ConnectedDevices.reset} loading={<LoadingSpinner minHeight="40" />}>
        <ConnectedDevices version={passwordChanges} />
      </ChunkErrorBoundary>
    </Stack>
  );
}

/** What is checked on Confirm: what changed, and the fields required while editing, changed or not. */
function checkedInput(user: User, values: ProfileForm) {
  // Full name, email and location are required while editing (docs/PRODUCT.md#validation-rules).
  return {
    ...profileChanges(user, values),
    full_name: values.full_name,
    email: values.email,
    location: values.location,
  };
}

function Profile({ user, onPasswordChanged }: { user: User; onPasswordChanged: () => void }) {
  const { t, i18n } = useLingui();
  const [editing, setEditing] = useState(false);
  const form = useContractForm(profileUpdatePayload, () => formOf(user), {
    input: (values) => checkedInput(user, values),
    // The schema lets the current password be empty; it is needed when the email or password changes.
    check: (values) =>
      profileChanges(user, values).current_password === '' ? { current_password: 'current_password_required' } : {},
  });
  const values = form.values;
  useUnsavedInput(editing);

  const startEditing = () => {
    form.reset(formOf(user));
    setEditing(true);
  };

  const cancel = () => {
    form.reset(formOf(user));
    setEditing(false);
  };

  const submit = (event: FormEvent<HTMLFormElement>) =>
    form.submit(event, async (valid) => {
      const changes = profileChanges(user, valid);
      if (Object.keys(changes).length === 0) {
        notify.info(() => t`Aucune modification à enregistrer`);
        cancel();
        return;
      }
      const result = await updateProfile(changes);
      if (result.status === 'success') {
        // The stored user changes at once; its copy in IndexedDB follows.
        const stored = replaceUser(result.data);
        setEditing(false);
        if (changes.new_password !== undefined) onPasswordChanged();
        notify.success(() => i18n._(OPERATION_SUCCEEDED));
        await stored;
        return;
      }
      form.showServerErrors(result);
      notify.error(apiFailureMessage(i18n, result));
    });

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
        <AppForm onSubmit={submit} aria-label={t`Profil`}>
          <Stack gap="4">
            <FormField
              label={<Trans>Nom complet</Trans>}
              error={form.error('full_name')}
              required={editing}
              readOnly={!editing}
            >
              <Input
                size="lg"
                autoComplete="name"
                readOnly={!editing}
                {...form.input('full_name')}
                value={shown.full_name}
              />
            </FormField>
            <FormField label={<Trans>E-mail</Trans>} error={form.error('email')} required={editing} readOnly={!editing}>
              <EmailInput readOnly={!editing} {...form.input('email')} value={shown.email} />
            </FormField>
            <FormField
              label={<Trans>Numéro de téléphone</Trans>}
              error={form.error('phone_number')}
              helper={editing ? <Trans>0 suivi de 8 à 10 chiffres</Trans> : undefined}
              readOnly={!editing}
            >
              {editing ? (
                <PhoneInput
                  name="phone_number"
                  value={shown.phone_number}
                  onValueChange={(value) => form.set('phone_number', value)}
                  onBlur={() => form.leave('phone_number')}
                />
              ) : (
                <Input size="lg" name="phone_number" readOnly dir="ltr" textAlign="start" value={shown.phone_number} />
              )}
            </FormField>
            <LocationField
              name="location"
              label={<Trans>Localisation (latitude, longitude)</Trans>}
              value={shown.location}
              onChange={(location) => form.pick('location', location)}
              editable={editing}
              required={editing}
              error={form.error('location')}
            />
            {editing && (
              <>
                <FormField
                  label={<Trans>Mot de passe actuel</Trans>}
                  error={form.error('current_password')}
                  helper={<Trans>Requis pour changer l’e-mail ou le mot de passe</Trans>}
                >
                  <PasswordInput autoComplete="current-password" {...form.input('current_password')} />
                </FormField>
                <FormField
                  label={<Trans>Nouveau mot de passe</Trans>}
                  error={form.error('new_password')}
                  helper={<Trans>Laissez vide pour garder le mot de passe actuel</Trans>}
                >
                  <PasswordInput autoComplete="new-password" {...form.input('new_password')} />
                </FormField>
                {values.new_password !== '' && (
                  <SignOutOthersField
                    checked={values.sign_out_others}
                    onCheckedChange={(checked) => form.pick('sign_out_others', checked)}
                  />
                )}
              </>
            )}
            <HStack justify="flex-end" gap="2" pt="2" wrap="wrap">
              {editing ? (
                <>
                  <Button type="button" size="lg" variant="outline" onClick={cancel} disabled={form.submitting}>
                    <Trans>Annuler</Trans>
                  </Button>
                  <Button type="submit" size="lg" colorPalette="brand" loading={form.submitting}>
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
        </AppForm>
      </Card.Body>
    </Card.Root>
  );
}
