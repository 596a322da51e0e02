/**
 * What the entry form says about a vehicle looked up offline (docs/ARCHITECTURE.md#the-offline-model-in-practice):
 * shown from the tablet's copy, or not known on this tablet yet. Only ever shown offline, so its code
 * loads then, from the service worker, not with the form (docs/ARCHITECTURE.md#start-up).
 */
import { Alert } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { formatDateTime } from '../../../lib/dates';

export type OfflineVehicleNoticeProps = { kind: 'cached'; cachedAt: string } | { kind: 'unknown' };

export default function OfflineVehicleNotice(props: OfflineVehicleNoticeProps) {
  if (props.kind === 'cached') {
    return (
      <Alert.Root status="info" role="status">
        <Alert.Indicator />
        <Alert.Title>
          <Trans>
            Hors connexion : informations du véhicule enregistrées sur la tablette le {formatDateTime(props.cachedAt)}.
          </Trans>
        </Alert.Title>
      </Alert.Root>
    );
  }
  return (
    <Alert.Root status="info" role="status">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          <Trans>Hors connexion : ce véhicule n'a pas encore été consulté sur cette tablette.</Trans>
        </Alert.Title>
        <Alert.Description>
          <Trans>
            Vous pouvez enregistrer la saisie ; le véhicule sera vérifié dès que la tablette sera de nouveau connectée.
          </Trans>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
