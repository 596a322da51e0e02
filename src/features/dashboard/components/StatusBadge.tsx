/** Where an entry of the history stands: on the server, or still on the tablet and why. */
import { Badge } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import type { HistoryStatus } from '../../../lib/history';

export function StatusBadge({ status }: { status: HistoryStatus }) {
  switch (status) {
    case 'synced':
      return (
        <Badge colorPalette="green" variant="subtle" size="md">
          <Trans>Envoyée</Trans>
        </Badge>
      );
    case 'pending':
      return (
        <Badge colorPalette="orange" variant="subtle" size="md">
          <Trans>En attente</Trans>
        </Badge>
      );
    case 'sending':
      return (
        <Badge colorPalette="blue" variant="subtle" size="md">
          <Trans>Envoi…</Trans>
        </Badge>
      );
    case 'rejected':
      return (
        <Badge colorPalette="red" variant="solid" size="md">
          <Trans>Refusée</Trans>
        </Badge>
      );
    case 'waiting_for_sign_in':
      return (
        <Badge colorPalette="purple" variant="subtle" size="md">
          <Trans>En attente de connexion</Trans>
        </Badge>
      );
  }
}
