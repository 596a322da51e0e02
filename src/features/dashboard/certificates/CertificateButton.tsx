/**
 * "Certificat kilométrique" on the vehicle's timeline (docs/PRODUCT.md#mileage-certificate). Its dialog
 * loads on the first tap. Offline the button says the server is needed, and its dialog says why.
 *
 * It shares the timeline's title row, which a landscape tablet gives little height and width (the
 * readings take what the column leaves): there its words take two short lines, leaving the title and
 * the readings' date their line each, and its 44 px target reaches into the section's padding rather
 * than making the row taller.
 */
import { Button, Text } from '@chakra-ui/react';
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
  const labelId = useId();
  const hintId = useId();
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        minHeight="11"
        height="auto"
        my="-1"
        py="1"
        px={{ lg: '2' }}
        maxWidth={{ lg: '32' }}
        whiteSpace={{ lg: 'normal' }}
        lineHeight={{ lg: 'shorter' }}
        textAlign="center"
        // Offline, what it needs is said inside it, under its name: beside or below it, the words would
        // make the timeline's title row taller and push the latest reading out of the section.
        flexDirection="column"
        gap="0"
        onClick={() => setOpen(true)}
        onPointerEnter={CertificateDialog.preload}
        aria-labelledby={labelId}
        aria-describedby={online ? undefined : hintId}
      >
        <span id={labelId}>
          <Trans>Certificat kilométrique</Trans>
        </span>
        {!online && (
          <Text as="span" id={hintId} fontSize="2xs" fontWeight="normal" color="fg.muted" whiteSpace="nowrap">
            <Trans>Connexion nécessaire</Trans>
          </Text>
        )}
      </Button>
      <CertificateDialog kodeId={kodeId} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
