/** Where an entry of the history stands: on the server, or still on the tablet and why. */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import type { EntryStatusLabel } from '../../../lib/sync';
import { StaticBadge, type BadgePalette } from '../../../components/ui/static-badge';

const LOOKS: Record<
  EntryStatusLabel,
  { label: MessageDescriptor; palette: BadgePalette; variant: 'subtle' | 'solid' }
> = {
  synced: { label: msg`Envoyée`, palette: 'green', variant: 'subtle' },
  pending: { label: msg`En attente`, palette: 'orange', variant: 'subtle' },
  sending: { label: msg`Envoi…`, palette: 'blue', variant: 'subtle' },
  rejected: { label: msg`Refusée`, palette: 'red', variant: 'solid' },
  waiting_for_sign_in: { label: msg`En attente de connexion`, palette: 'purple', variant: 'subtle' },
};

export function StatusBadge({ status }: { status: EntryStatusLabel }) {
  const { i18n } = useLingui();
  const look = LOOKS[status];
  return (
    <StaticBadge palette={look.palette} variant={look.variant}>
      {i18n._(look.label)}
    </StaticBadge>
  );
}
