/**
 * The partner conditions (docs/PRODUCT.md#privacy-conditions): HTML from the settings, in the active
 * language by the _ar/_en rule (docs/PRODUCT.md#localised-records) (French otherwise), sanitised before it is
 * shown. Readable signed in or not; the way back leads where the reader came from.
 */
import { Box, Card, Heading, Stack } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useState } from 'react';
import type { Settings } from '../../../../contract';
import { paths } from '../../../config/paths';
import { AppLink } from '../../../components/ui/app-link';
import { LoadFailureAlert } from '../../../components/ui/load-failure-alert';
import { LoadingSpinner } from '../../../components/ui/loading-spinner';
import { apiFailureMessage } from '../../../lib/error-messages';
import { directionOf, useLocale } from '../../../lib/i18n';
import { localized } from '../../../lib/localized';
import { sanitizeHtml } from '../../../lib/sanitize';
import { useSession } from '../../../lib/session';
import { getSettings } from '../api/get-settings';

type LoadState =
  { status: 'loading' } | { status: 'ready'; settings: Settings } | { status: 'failed'; message: string };

/** Readable rich text: the settings documents use h2, h3, p, ul/li, strong and a. */
const PROSE_STYLES = {
  lineHeight: '1.7',
  textAlign: 'start',
  overflowWrap: 'break-word',
  '& h2': { fontSize: 'xl', fontWeight: 'bold', mt: '0', mb: '4', lineHeight: '1.3' },
  '& h3': { fontSize: 'lg', fontWeight: 'semibold', mt: '6', mb: '2', lineHeight: '1.4' },
  '& p': { mb: '3' },
  '& ul, & ol': { ps: '6', mb: '3' },
  '& ul': { listStyleType: 'disc' },
  '& ol': { listStyleType: 'decimal' },
  '& li': { mb: '1' },
  '& strong': { fontWeight: 'semibold' },
  '& a': { color: 'brand.fg', textDecoration: 'underline' },
} as const;

export default function PrivacyConditionsPage() {
  const { i18n } = useLingui();
  const { status } = useSession();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const locale = useLocale();

  useEffect(() => {
    const controller = new AbortController();
    void getSettings(controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      setState(
        result.status === 'success'
          ? { status: 'ready', settings: result.data }
          : { status: 'failed', message: apiFailureMessage(i18n, result) },
      );
    });
    return () => controller.abort();
  }, [attempt, i18n]);

  const html = useMemo(() => {
    if (state.status !== 'ready') return '';
    const settings = state.settings;
    return sanitizeHtml(localized({ ...settings }, 'partner_conditions', locale));
  }, [state, locale]);

  const signedIn = status === 'authenticated';

  return (
    <Stack gap="4" py="2">
      <Box>
        <AppLink href={signedIn ? paths.dashboard : paths.register}>
          <Box as="span" aria-hidden="true" me="1">
            {directionOf(locale) === 'rtl' ? '→' : '←'}
          </Box>
          {signedIn ? <Trans>Retour au tableau de bord</Trans> : <Trans>Retour à l’inscription</Trans>}
        </AppLink>
      </Box>
      <Card.Root variant="elevated">
        <Card.Header>
          <Heading as="h1" size="2xl">
            <Trans>Conditions de confidentialité</Trans>
          </Heading>
        </Card.Header>
        <Card.Body>
          {state.status === 'loading' && <LoadingSpinner minHeight="40" />}
          {state.status === 'failed' && (
            <LoadFailureAlert
              title={<Trans>Impossible de charger les conditions</Trans>}
              onRetry={() => {
                setState({ status: 'loading' });
                setAttempt((count) => count + 1);
              }}
            >
              {state.message}
            </LoadFailureAlert>
          )}
          {state.status === 'ready' && (
            <Box
              data-testid="privacy-conditions"
              css={PROSE_STYLES}
              // Sanitised above with DOMPurify: only document markup is left.
              dangerouslySetInnerHTML={{ __html: html }}
            />
          )}
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
