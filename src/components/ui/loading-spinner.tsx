/** The spinner shown while a part of the app loads ("Chargement…" to assistive technology). */
import { Center, Spinner } from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';

/**
 * `minHeight` keeps the place of what is loading: most of the page for a screen, less for a tab's panel.
 * The spinner is an image named "Chargement…" (a name on a plain span is not allowed by ARIA).
 */
export function LoadingSpinner({ minHeight = '60vh' }: { minHeight?: string }) {
  const { t } = useLingui();
  return (
    <Center minHeight={minHeight} role="status" aria-live="polite">
      <Spinner size="lg" color="brand.solid" role="img" aria-label={t`Chargement…`} />
    </Center>
  );
}
