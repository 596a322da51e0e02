/** Where an entry of the history stands: on the server, or still on the tablet and why. */
import { useLingui } from '@lingui/react';
import { STATUS_LOOKS, type EntryStatusLabel } from '../../../lib/entries/words';
import { StaticBadge } from '../../../components/ui/static-badge';

export function StatusBadge({ status }: { status: EntryStatusLabel }) {
  const { i18n } = useLingui();
  const look = STATUS_LOOKS[status];
  return (
    <StaticBadge palette={look.palette} variant={look.variant}>
      {i18n._(look.label)}
    </StaticBadge>
  );
}
