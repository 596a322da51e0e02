/**
 * What a page could not load (the privacy conditions, a certificate): what, why, and a button to ask
 * again. The page says what failed and why; the retry is the same everywhere.
 */
import { Alert, Button } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';

export function LoadFailureAlert(props: { title: ReactNode; children: ReactNode; onRetry: () => void }) {
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{props.title}</Alert.Title>
        <Alert.Description>{props.children}</Alert.Description>
      </Alert.Content>
      <Button size="lg" variant="outline" alignSelf="center" onClick={props.onRetry}>
        <Trans>Réessayer</Trans>
      </Button>
    </Alert.Root>
  );
}
