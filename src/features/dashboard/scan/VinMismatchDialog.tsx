/**
 * The VIN read off the car is not the vehicle's (docs/PRODUCT.md#scanning-and-the-vin-check): asked before
 * Insert, as an implausible reading is, since the entry would go to another vehicle's history. Shown by
 * VinCheck, which loads the scanner's words.
 */
import { Text } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';

export interface VinQuestion {
  /** The VIN entered or scanned. */
  entered: string;
  /** The vehicle's VIN in the registry. */
  vehicleVin: string;
  checkDigitFailed: boolean;
}

function VinLine({ label, vin, strong = false }: { label: ReactNode; vin: string; strong?: boolean }) {
  return (
    <>
      <Text>{label}</Text>
      <Text fontFamily="mono" fontWeight={strong ? 'semibold' : undefined} dir="ltr" textAlign="start" mb="2">
        {vin}
      </Text>
    </>
  );
}

export default function VinMismatchDialog({
  question,
  onConfirm,
  onCancel,
}: {
  question: VinQuestion | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open={question !== null}
      title={<Trans>Vérifiez le VIN</Trans>}
      confirmLabel={<Trans>Enregistrer quand même</Trans>}
      cancelLabel={<Trans>Revenir à la saisie</Trans>}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {question && (
        <>
          <Text mb="4">
            <Trans>
              Le VIN lu sur le véhicule ne correspond pas à celui du véhicule affiché : la saisie irait dans
              l'historique d'un autre véhicule.
            </Trans>
          </Text>
          {/* Plain lines, not a DataList: sharing it with this on-demand chunk would split it out of the first load's. */}
          <VinLine label={<Trans>VIN du véhicule affiché</Trans>} vin={question.vehicleVin} />
          <VinLine label={<Trans>VIN lu sur le véhicule</Trans>} vin={question.entered} strong />
          {question.checkDigitFailed && (
            <Text mt="4" color="fg.muted">
              <Trans>Sa clé de contrôle (9e caractère) est fausse : il a sans doute été mal lu ou mal saisi.</Trans>
            </Text>
          )}
        </>
      )}
    </ConfirmDialog>
  );
}
