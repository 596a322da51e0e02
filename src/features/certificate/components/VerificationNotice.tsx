/**
 * What the browser's check of the signature found (../verify.ts), first on the page: only a signature
 * that holds says 'Signature vérifiée'. A certificate that fails says so before anything else is read.
 */
import { Alert, Button } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { PRINT_HIDDEN } from '../print-styles';
import type { Verification } from '../verify';

interface Look {
  status: 'success' | 'error' | 'warning';
  title: ReactNode;
  description: ReactNode;
}

function lookOf(verification: Verification): Look {
  switch (verification.outcome) {
    case 'verified':
      return {
        status: 'success',
        title: <Trans>Signature vérifiée</Trans>,
        description: (
          <Trans>
            Ce navigateur a vérifié la signature du portail : le certificat n’a pas été modifié depuis son émission.
          </Trans>
        ),
      };
    case 'tampered':
      return {
        status: 'error',
        title: <Trans>Certificat falsifié : ne vous y fiez pas</Trans>,
        description:
          verification.why === 'id' ? (
            <Trans>Ce certificat ne porte pas le numéro demandé. Ses relevés ne sont pas garantis.</Trans>
          ) : (
            <Trans>
              Sa signature ne correspond pas à son contenu : il a été modifié. Ses relevés ne sont pas garantis.
            </Trans>
          ),
      };
    case 'unknown_key':
      return {
        status: 'error',
        title: <Trans>Signature inconnue : ne vous y fiez pas</Trans>,
        description: (
          <Trans>
            Ce certificat est signé par une clé que le portail ne publie pas. Ses relevés ne sont pas garantis.
          </Trans>
        ),
      };
    case 'cannot_check':
      return {
        status: 'warning',
        title: <Trans>Signature non vérifiée</Trans>,
        description:
          verification.why === 'keys_unreachable' ? (
            <Trans>
              Les clés de signature du portail n’ont pas pu être chargées. Le contenu est celui que donne le serveur.
            </Trans>
          ) : (
            <Trans>
              Ce navigateur ne sait pas vérifier la signature (il faut un navigateur récent et une adresse en https). Le
              contenu est celui que donne le serveur.
            </Trans>
          ),
      };
  }
}

export function VerificationNotice({ verification, onRetry }: { verification: Verification; onRetry: () => void }) {
  const look = lookOf(verification);
  const canRetry = verification.outcome === 'cannot_check' && verification.why === 'keys_unreachable';
  return (
    <Alert.Root
      status={look.status}
      role={look.status === 'error' ? 'alert' : 'status'}
      data-testid="certificate-verification"
      data-outcome={verification.outcome}
    >
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{look.title}</Alert.Title>
        <Alert.Description>{look.description}</Alert.Description>
      </Alert.Content>
      {canRetry && (
        <Button size="sm" variant="outline" alignSelf="center" onClick={onRetry} {...PRINT_HIDDEN}>
          <Trans>Réessayer</Trans>
        </Button>
      )}
    </Alert.Root>
  );
}
