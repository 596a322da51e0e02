import { Box, Button, HStack, Text } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { applyUpdate, useUpdateWaiting } from '../lib/pwa';
import { useHasUnsavedInput } from '../lib/unsaved';
import { SyncIcon } from './ui/icons';

/** Offers a new version; it is applied only on request and never over unsaved input. */
export function UpdatePrompt() {
  const waiting = useUpdateWaiting();
  const unsaved = useHasUnsavedInput();
  if (!waiting) return null;
  return (
    <Box
      role="status"
      aria-live="polite"
      position="fixed"
      insetInlineEnd="4"
      bottom="4"
      zIndex="toast"
      bg="bg.panel"
      borderWidth="1px"
      borderRadius="l3"
      boxShadow="lg"
      p="4"
      maxWidth="sm"
    >
      <Text fontWeight="semibold">
        <Trans>Une nouvelle version du portail est disponible.</Trans>
      </Text>
      {unsaved && (
        <Text fontSize="sm" color="fg.muted" mt="1">
          <Trans>Terminez ou videz la saisie en cours pour mettre à jour.</Trans>
        </Text>
      )}
      <HStack mt="3" justify="flex-end">
        <Button size="sm" colorPalette="brand" onClick={applyUpdate} disabled={unsaved}>
          <SyncIcon />
          <Trans>Mettre à jour</Trans>
        </Button>
      </HStack>
    </Box>
  );
}
