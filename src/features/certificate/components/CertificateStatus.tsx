/**
 * What became of the certificate, as the server reports it now: valid until a date, expired, or revoked
 * by its garage; and, apart, how many readings the portal received since it was issued, which it does
 * not show.
 */
import { Alert, Stack } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { PublicCertificate } from '../../../../contract';
import { formatDateTime } from '../../../lib/dates';

interface Look {
  status: 'success' | 'warning' | 'error';
  title: ReactNode;
  description?: ReactNode;
}

function lookOf(answer: PublicCertificate): Look {
  const { valid_until: validUntil } = answer.certificate.payload;
  if (answer.status === 'revoked') {
    return {
      status: 'error',
      title: answer.revoked_at ? (
        <Trans>
          Révoqué par le garage le <bdi>{formatDateTime(answer.revoked_at)}</bdi>
        </Trans>
      ) : (
        <Trans>Révoqué par le garage</Trans>
      ),
      description: <Trans>Le garage qui l’a émis l’a retiré : il ne vaut plus comme certificat.</Trans>,
    };
  }
  if (answer.status === 'expired') {
    return {
      status: 'warning',
      title: (
        <Trans>
          Expiré depuis le <bdi>{formatDateTime(validUntil)}</bdi>
        </Trans>
      ),
      description: <Trans>Demandez au propriétaire du véhicule un certificat récent.</Trans>,
    };
  }
  return {
    status: 'success',
    title: (
      <Trans>
        Valide jusqu’au <bdi>{formatDateTime(validUntil)}</bdi>
      </Trans>
    ),
  };
}

function NewerReadings({ count }: { count: number }) {
  return (
    <Alert.Root status="info" role="status" data-testid="certificate-newer-readings">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          <Trans>Des relevés plus récents existent depuis son émission ({count})</Trans>
        </Alert.Title>
        <Alert.Description>
          <Trans>Ce certificat ne les montre pas : demandez-en un nouveau au propriétaire du véhicule.</Trans>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

export function CertificateStatus({ answer }: { answer: PublicCertificate }) {
  const look = lookOf(answer);
  return (
    <Stack gap="3">
      <Alert.Root status={look.status} role="status" data-testid="certificate-status" data-status={answer.status}>
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{look.title}</Alert.Title>
          {look.description && <Alert.Description>{look.description}</Alert.Description>}
        </Alert.Content>
      </Alert.Root>
      {answer.newer_readings > 0 && <NewerReadings count={answer.newer_readings} />}
    </Stack>
  );
}
