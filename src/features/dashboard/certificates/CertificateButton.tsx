/**
 * "Certificat kilométrique" on the vehicle's timeline (docs/PRODUCT.md#mileage-certificate). Its dialog
 * loads on the first tap. Offline the button says the server is needed, and its dialog says why.
 */
import { Button, Stack, Text } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { lazyDialog } from '../../../components/ui/lazy-dialog';
import { useOnline } from '../../../lib/online';
import type { CertificateDialogProps } from './CertificateDialog';

const CertificateDialog = lazyDialog<CertificateDialogProps>(
  () => import('./CertificateDialog').then((module) => module.CertificateDialog),
  { isOpen: (props) => props.open, close: (props) => props.onClose() },
);

export function CertificateButton({ kodeId }: { kodeId: string }) {
  const [open, setOpen] = useState(false);
  const online = useOnline();
  const hintId = useId();
  return (
    <Stack gap="0" align="end">
      <Button
        variant="outline"
        size="sm"
        minHeight="11"
        onClick={() => setOpen(true)}
        onPointerEnter={CertificateDialog.preload}
        aria-describedby={online ? undefined : hintId}
      >
        <Trans>Certificat kilométrique</Trans>
      </Button>
      {!online && (
        <Text id={hintId} fontSize="xs" color="fg.muted">
          <Trans>Connexion nécessaire</Trans>
        </Text>
      )}
      <CertificateDialog kodeId={kodeId} open={open} onClose={() => setOpen(false)} />
    </Stack>
  );
}
