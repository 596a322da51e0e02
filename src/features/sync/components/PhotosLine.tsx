/**
 * In the storage's section: what the odometer photos take on the tablet, and, when some belong to
 * entries the server already holds, the way to drop them (docs/ARCHITECTURE.md#odometer-photos). The
 * photos of entries still queued are never offered: their reading has not left yet.
 */
import { Button, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { notify } from '../../../components/ui/toaster';
import { formatBytes } from '../../../lib/format';
import { useLocale } from '../../../lib/i18n';
import { usePhotoCatalog } from '../../../lib/photo-catalog';
import { dropSentEntriesPhotos, usePhotoStorage } from '../data/photos';

export function PhotosLine() {
  usePhotoCatalog();
  const { t } = useLingui();
  const locale = useLocale();
  const storage = usePhotoStorage();
  const [confirming, setConfirming] = useState(false);
  if (!storage || storage.count === 0) return null;
  const size = formatBytes(storage.bytes, locale);
  const count = storage.count;
  const droppable = storage.ofSentEntries.count;
  const droppableSize = formatBytes(storage.ofSentEntries.bytes, locale);
  const drop = async () => {
    setConfirming(false);
    const dropped = await dropSentEntriesPhotos().catch(() => null);
    if (dropped === null) notify.error(() => t`Les photos n'ont pas pu être supprimées.`);
    else notify.success(() => t`Photos supprimées de la tablette : ${dropped}`);
  };
  return (
    <Stack gap="2" data-photo-storage="">
      <Text>{t`Photos du compteur sur la tablette : ${count} (${size})`}</Text>
      {droppable > 0 && (
        <Button variant="outline" minHeight="12" alignSelf="start" onClick={() => setConfirming(true)}>
          <Trans>
            Supprimer les photos des saisies déjà envoyées ({droppable}, {droppableSize})
          </Trans>
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        title={<Trans>Supprimer ces photos ?</Trans>}
        confirmLabel={<Trans>Supprimer les photos</Trans>}
        cancelLabel={<Trans>Garder les photos</Trans>}
        onConfirm={() => void drop()}
        onCancel={() => setConfirming(false)}
      >
        <Text>
          <Trans>
            Leurs relevés sont sur le serveur, mais ces photos n'y sont pas encore : elles ne pourront plus servir de
            preuve.
          </Trans>
        </Text>
      </ConfirmDialog>
    </Stack>
  );
}
