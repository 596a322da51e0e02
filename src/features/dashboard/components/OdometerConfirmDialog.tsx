/** docs/PRODUCT.md#odometer-plausibility: a reading lower than the last one, or implausibly high, is confirmed first. */
import { DataList, Text } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { formatDateTime } from '../../../lib/dates';
import { formatKm } from '../../../lib/format';
import { useLocale } from '../../../lib/i18n';
import type { ReadingQuestion } from '../entry-form/flow';
import { ChunkErrorBoundary } from '../../../components/ui/chunk-error-boundary';
import { PhotoRequest, type PhotoDraftControls } from '../photo';

export function OdometerConfirmDialog(props: {
  question: ReadingQuestion | null;
  /** The entry's photo: the dialog asks for one, since it settles a disputed reading. */
  photo: PhotoDraftControls;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const locale = useLocale();
  const question = props.question;
  return (
    <ConfirmDialog
      open={question !== null}
      title={<Trans>Vérifiez le kilométrage</Trans>}
      confirmLabel={<Trans>Confirmer le kilométrage</Trans>}
      cancelLabel={<Trans>Revenir à la saisie</Trans>}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
    >
      {question && (
        <>
          <Text mb="4">
            {question.kind === 'lower' ? (
              <Trans>Le kilométrage saisi est inférieur au dernier relevé connu pour ce véhicule.</Trans>
            ) : (
              <Trans>
                Le kilométrage saisi est anormalement élevé par rapport au dernier relevé connu pour ce véhicule.
              </Trans>
            )}
          </Text>
          <DataList.Root orientation={{ base: 'vertical', sm: 'horizontal' }} size="lg">
            <DataList.Item>
              <DataList.ItemLabel>
                <Trans>Dernier relevé</Trans>
              </DataList.ItemLabel>
              <DataList.ItemValue whiteSpace="nowrap" flexWrap="wrap">
                <bdi>{formatKm(question.previous.odometer, locale)}</bdi>
                {question.previous.at && (
                  <Text as="span" ms="2" color="fg.muted">
                    <bdi>({formatDateTime(question.previous.at)})</bdi>
                  </Text>
                )}
              </DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>
                <Trans>Nouveau relevé</Trans>
              </DataList.ItemLabel>
              <DataList.ItemValue fontWeight="semibold" whiteSpace="nowrap">
                <bdi>{formatKm(question.odometer, locale)}</bdi>
              </DataList.ItemValue>
            </DataList.Item>
          </DataList.Root>
          <ChunkErrorBoundary reset={PhotoRequest.reset}>
            <PhotoRequest controls={props.photo} />
          </ChunkErrorBoundary>
        </>
      )}
    </ConfirmDialog>
  );
}
