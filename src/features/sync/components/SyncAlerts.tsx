/**
 * Above every signed-in screen: storage at risk (docs/ARCHITECTURE.md#storage-health) and entries that
 * will not leave without the mechanic (docs/ARCHITECTURE.md#entries-that-need-the-mechanic). What to
 * show is decided here, in the first load, from two live counts; the alerts themselves, with their
 * words and buttons, load only when there is one to show.
 */
import { ChunkErrorBoundary } from '../../../components/ui/chunk-error-boundary';
import { retryableLazy } from '../../../components/ui/retryable-lazy';
import { storageRisks } from '../../../lib/storage-health';
import { useOutboxAttention, useSyncStatus } from '../../../lib/entries/hooks';
import type { OutboxAttention } from '../../../lib/entries';
import { useNow } from '../hooks/useNow';
import { useStorageHealth } from '../hooks/useStorageHealth';

const StorageAlerts = retryableLazy(() => import('./StorageAlerts'));
const OutboxAlerts = retryableLazy(() => import('./OutboxAlerts'));

function needsAttention(attention: OutboxAttention | null | undefined): attention is OutboxAttention {
  if (!attention) return false;
  return attention.stale.count + attention.rejected.count + attention.waitingForSignIn.count > 0;
}

function resetBoth() {
  StorageAlerts.reset();
  OutboxAlerts.reset();
}

export function SyncAlerts() {
  const { waiting, rejected } = useSyncStatus();
  const health = useStorageHealth(waiting + rejected);
  // The panel shows "not persistent" with its button; above the screen, only what cannot wait.
  const risks = health ? storageRisks(health).filter((risk) => risk !== 'not-persistent') : [];
  const attention = useOutboxAttention(useNow());
  const outbox = needsAttention(attention) ? attention : null;
  if ((!health || risks.length === 0) && !outbox) return null;
  return (
    <ChunkErrorBoundary reset={resetBoth}>
      {health && risks.length > 0 && <StorageAlerts health={health} risks={risks} />}
      {outbox && <OutboxAlerts attention={outbox} />}
    </ChunkErrorBoundary>
  );
}
