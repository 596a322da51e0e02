/**
 * A mileage certificate's public page, `/c/{id}` (docs/PRODUCT.md#mileage-certificate): readable by
 * anyone with its link or QR code, signed in or not. The id may have been typed from paper, so it is
 * read as typed; one that cannot be an id is answered at once, without asking the server.
 */
import { Global } from '@emotion/react';
import { Alert } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { Suspense } from 'react';
import { useParams } from 'wouter';
import { normaliseCertificateId, type ApiFailure } from '../../../../contract';
import { LoadFailureAlert } from '../../../components/ui/load-failure-alert';
import { LoadingSpinner } from '../../../components/ui/loading-spinner';
import { useCertificateCatalog } from '../../../lib/certificate-catalog';
import { CertificateView } from '../components/CertificateView';
import { PRINT_STYLES } from '../print-styles';
import { useReaderLanguage } from '../reader-language';
import { useCertificate } from '../use-certificate';

function NotFound() {
  return (
    <Alert.Root status="warning" role="alert" data-testid="certificate-not-found">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          <Trans>Aucun certificat ne porte ce numéro</Trans>
        </Alert.Title>
        <Alert.Description>
          <Trans>
            Vérifiez le numéro imprimé à côté du QR code : 16 lettres et chiffres en quatre groupes, comme
            7K3M-9QXD-2F8R-TN4W.
          </Trans>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

function FailureWords({ failure }: { failure: ApiFailure }) {
  if (failure.code === 0) return <Trans>Serveur injoignable : vérifiez la connexion et réessayez.</Trans>;
  if (failure.code === 429)
    return <Trans>Trop de consultations depuis cette connexion : réessayez dans une minute.</Trans>;
  return <Trans>Le serveur n’a pas pu répondre : réessayez dans un instant.</Trans>;
}

function Certificate({ id }: { id: string }) {
  const { state, retry } = useCertificate(id);
  switch (state.status) {
    case 'loading':
      return <LoadingSpinner />;
    case 'not_found':
      return <NotFound />;
    case 'failed':
      return (
        <LoadFailureAlert title={<Trans>Impossible de charger le certificat</Trans>} onRetry={retry}>
          <FailureWords failure={state.failure} />
        </LoadFailureAlert>
      );
    case 'ready':
      return <CertificateView id={id} answer={state.answer} verification={state.verification} onRetry={retry} />;
  }
}

/** The id as the address holds it (percent-encoded when typed with spaces), read as a person may have typed it. */
function idOf(segment: string): string | null {
  try {
    return normaliseCertificateId(decodeURIComponent(segment));
  } catch {
    return null;
  }
}

function CertificateScreen({ segment }: { segment: string }) {
  useCertificateCatalog();
  const id = idOf(segment);
  // Keyed by the id: another certificate starts from loading, never from this one's answer.
  return id ? <Certificate key={id} id={id} /> : <NotFound />;
}

export default function CertificatePage() {
  const { id = '' } = useParams<{ id: string }>();
  const languageShown = useReaderLanguage();
  return (
    <>
      <Global styles={PRINT_STYLES} />
      {/* Its words load with it: the layout stays while they arrive or change language. */}
      <Suspense fallback={<LoadingSpinner />}>
        {languageShown ? <CertificateScreen segment={id} /> : <LoadingSpinner />}
      </Suspense>
    </>
  );
}
