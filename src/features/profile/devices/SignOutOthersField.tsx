/**
 * The password change's choice on the profile form (docs/PRODUCT.md#connected-devices): whether the
 * other devices are signed out too. Its words are the devices' (src/lib/devices-catalog.ts).
 */
import { Box, Text } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { ChunkErrorBoundary } from '../../../components/ui/chunk-error-boundary';
import { PlainCheckbox } from '../../../components/ui/plain-checkbox';
import { useDevicesCatalog } from '../../../lib/devices-catalog';

interface SignOutOthersFieldProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}

function Field({ checked, onCheckedChange }: SignOutOthersFieldProps) {
  useDevicesCatalog();
  return (
    <Box>
      <PlainCheckbox name="sign_out_others" checked={checked} onCheckedChange={onCheckedChange}>
        <Trans>Déconnecter les autres appareils</Trans>
      </PlainCheckbox>
      <Text fontSize="sm" color="fg.muted" ps="7.5">
        {checked ? (
          <Trans>Ils devront se connecter avec le nouveau mot de passe. Cet appareil reste connecté.</Trans>
        ) : (
          <Trans>Les autres appareils restent connectés.</Trans>
        )}
      </Text>
    </Box>
  );
}

/** The checkbox; its place is kept while its words load, and a failure to fetch them offers Retry in place. */
export function SignOutOthersField(props: SignOutOthersFieldProps) {
  return (
    // The catalog's loader forgets a failed fetch by itself (src/lib/lazy-catalog.ts): nothing to reset.
    <ChunkErrorBoundary reset={() => undefined} loading={<Box minHeight="16" />}>
      <Field {...props} />
    </ChunkErrorBoundary>
  );
}
