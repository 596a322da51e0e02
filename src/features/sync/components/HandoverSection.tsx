/**
 * The hand-over file in the sending panel (docs/ARCHITECTURE.md#the-hand-over-file): export this
 * partner's unsent and refused entries, or import a file exported on another tablet by the same partner.
 */
import { Button, Heading, HStack, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type ChangeEvent } from 'react';
import { useSyncStatus } from '../../../lib/sync/hooks';
import { useHandover } from '../hooks/useHandover';

export function HandoverSection() {
  const { t } = useLingui();
  const { waiting, rejected } = useSyncStatus();
  const { exportEntries, importFile } = useHandover();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<'export' | 'import' | null>(null);

  const run = async (kind: 'export' | 'import', action: () => Promise<void>) => {
    setBusy(kind);
    await action().finally(() => setBusy(null));
  };
  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared, so choosing the same file again imports it again (and adds nothing).
    event.target.value = '';
    if (file) void run('import', () => importFile(file));
  };

  return (
    <Stack gap="3" as="section" aria-labelledby="handover-heading">
      <Heading as="h3" size="md" id="handover-heading">
        <Trans>Transfert vers une autre tablette</Trans>
      </Heading>
      <Text>
        <Trans>
          Exportez les saisies non envoyées et refusées dans un fichier, puis importez-le sur une autre tablette
          connectée au même compte : chaque saisie n’est enregistrée qu’une fois.
        </Trans>
      </Text>
      <HStack gap="2" wrap="wrap">
        <Button
          minHeight="12"
          variant="outline"
          colorPalette="brand"
          disabled={waiting + rejected === 0}
          loading={busy === 'export'}
          onClick={() => void run('export', exportEntries)}
        >
          <Trans>Exporter les saisies</Trans>
        </Button>
        <Button
          minHeight="12"
          variant="outline"
          colorPalette="brand"
          loading={busy === 'import'}
          onClick={() => input.current?.click()}
        >
          <Trans>Importer un fichier</Trans>
        </Button>
        <VisuallyHidden asChild>
          <input
            ref={input}
            type="file"
            accept="application/json,.json"
            aria-label={t`Fichier de transfert à importer`}
            tabIndex={-1}
            onChange={chosen}
          />
        </VisuallyHidden>
      </HStack>
    </Stack>
  );
}
