/**
 * The hand-over file in the sending panel (docs/ARCHITECTURE.md#the-hand-over-file): export this
 * partner's unsent and refused entries, or import a file exported on another tablet by the same partner.
 * The entries of an imported file that differ from this tablet's under the same key stay listed here,
 * field by field, until the next import: a toast would be gone before they were read.
 */
import { Alert, Button, Heading, HStack, List, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type ChangeEvent } from 'react';
import { EntryDifferences } from '../../../components/EntryDifferences';
import { useSyncStatus } from '../../../lib/entries/hooks';
import { usePhotoStorage } from '../data/photos';
import { useHandover, type ImportedConflicts } from '../hooks/useHandover';

function ImportConflicts({ conflicts, repairTypes }: ImportedConflicts) {
  const { t } = useLingui();
  const differing = conflicts.length;
  return (
    <Alert.Root status="warning" data-import-conflicts="">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          {t`${plural(differing, {
            one: '# saisie du fichier diffère de celle de cette tablette : elle n’a pas été importée',
            other: '# saisies du fichier diffèrent de celles de cette tablette : elles n’ont pas été importées',
          })}`}
        </Alert.Title>
        <Alert.Description>
          <List.Root ps="0" mt="2" gap="3" listStyleType="none">
            {conflicts.map((conflict) => (
              <List.Item key={conflict.key} data-key={conflict.key}>
                <Text fontWeight="semibold" fontFamily="mono">
                  <bdi dir="ltr">{conflict.kodeId}</bdi>
                </Text>
                <EntryDifferences
                  differences={conflict.differences}
                  thereLabel={t`Dans le fichier`}
                  names={{ repairTypes }}
                />
              </List.Item>
            ))}
          </List.Root>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

export function HandoverSection() {
  const { t } = useLingui();
  const { waiting, rejected } = useSyncStatus();
  const photosToHandOver = usePhotoStorage()?.toHandOver ?? 0;
  const { exportEntries, importFile } = useHandover();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<'export' | 'import' | null>(null);
  const [conflicts, setConflicts] = useState<ImportedConflicts | null>(null);

  const run = async (kind: 'export' | 'import', action: () => Promise<void>) => {
    setBusy(kind);
    await action().finally(() => setBusy(null));
  };
  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared, so choosing the same file again imports it again (and adds nothing).
    event.target.value = '';
    if (file) void run('import', async () => setConflicts(await importFile(file)));
  };

  return (
    <Stack gap="3" as="section" aria-labelledby="handover-heading">
      <Heading as="h3" size="md" id="handover-heading">
        <Trans>Transfert vers une autre tablette</Trans>
      </Heading>
      <Text>
        <Trans>
          Exportez les saisies non envoyées et refusées, avec les photos pas encore envoyées, dans un fichier, puis
          importez-le sur une autre tablette connectée au même compte : chaque saisie n’est enregistrée qu’une fois.
        </Trans>
      </Text>
      <HStack gap="2" wrap="wrap">
        <Button
          minHeight="12"
          variant="outline"
          colorPalette="brand"
          disabled={waiting + rejected + photosToHandOver === 0}
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
      {conflicts && <ImportConflicts {...conflicts} />}
    </Stack>
  );
}
