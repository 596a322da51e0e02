/**
 * Above every signed-in screen, what threatens the entries kept on the tablet and cannot wait for
 * the mechanic to open the sending panel: a browser that deletes an uninstalled site's data, and
 * storage almost full (docs/ARCHITECTURE.md#storage-health). Loaded when there is one (SyncAlerts).
 */
import { Stack } from '@chakra-ui/react';
import type { StorageHealth, StorageRisk } from '../../../lib/storage-health';
import { StorageRiskAlert } from './StorageRiskText';
import { useSyncCatalog } from '../catalog';

export default function StorageAlerts({ health, risks }: { health: StorageHealth; risks: StorageRisk[] }) {
  useSyncCatalog();
  return (
    <Stack gap="3" maxWidth="6xl" mx="auto" width="full" mb={{ base: '3', md: '4' }}>
      {risks.map((risk) => (
        <StorageRiskAlert key={risk} risk={risk} health={health} announce />
      ))}
    </Stack>
  );
}
