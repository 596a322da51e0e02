/**
 * The vehicle's mileage certificate, from its timeline (docs/PRODUCT.md#mileage-certificate): the garage
 * confirms that the owner asked for one, the server issues and signs it, and the dialog hands over its
 * link to share or open. Below, the certificates this garage issued for the vehicle, with revoke.
 * A certificate needs the server: offline the dialog says so and nothing is queued.
 */
import { Alert, Button, Dialog, Field, Heading, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import type { IssuedCertificate } from '../../../../contract';
import { ShareLinkButton } from '../../../components/ShareLinkButton';
import { DialogBody, DialogFrame, FormDialogFooter } from '../../../components/ui/dialog-frame';
import { PlainCheckbox } from '../../../components/ui/plain-checkbox';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/error-messages';
import { useOnline } from '../../../lib/online';
import { issueCertificate } from '../api/certificates';
import { CertificateList, CertificateListBody, certificateAddress } from './CertificateList';
import { useCertificateList, useFailureOf, type CertificateList as ListOf } from './useCertificates';

export interface CertificateDialogProps {
  kodeId: string;
  open: boolean;
  onClose: () => void;
}

function OfflineNotice() {
  return (
    <Alert.Root status="warning">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          <Trans>Un certificat a besoin du serveur</Trans>
        </Alert.Title>
        <Alert.Description>
          <Trans>La tablette est hors connexion : rien n’est mis en attente. Émettez-le une fois connectée.</Trans>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

function IssuedNotice({ issued }: { issued: IssuedCertificate }) {
  const { t } = useLingui();
  const address = certificateAddress(issued);
  return (
    <Alert.Root status="success" role="status">
      <Alert.Indicator />
      <Alert.Content gap="2">
        <Alert.Title>
          <Trans>
            Certificat <bdi>{issued.id}</bdi> émis
          </Trans>
        </Alert.Title>
        <Alert.Description>
          <Trans>
            Valable jusqu’au <bdi>{formatDateTime(issued.valid_until)}</bdi>. Envoyez son lien au propriétaire, ou
            ouvrez-le pour l’imprimer.
          </Trans>
        </Alert.Description>
        <Stack direction="row" wrap="wrap" gap="2">
          <ShareLinkButton url={address} title={t`Certificat kilométrique ${issued.id}`} />
          <Button asChild variant="outline" size="md" minHeight="11">
            <a href={address} target="_blank" rel="noopener">
              <Trans>Ouvrir le certificat</Trans>
            </a>
          </Button>
        </Stack>
      </Alert.Content>
    </Alert.Root>
  );
}

function VehicleCertificates({ list }: { list: ListOf }) {
  const { t } = useLingui();
  return (
    <CertificateListBody
      list={list}
      offlineText={<Trans>Certificats émis : visibles une fois connecté.</Trans>}
      emptyText={<Trans>Aucun certificat émis pour ce véhicule.</Trans>}
    >
      {(items) => (
        <CertificateList
          items={items}
          showVehicle={false}
          onRevoked={list.put}
          label={t`Certificats émis pour ce véhicule`}
        />
      )}
    </CertificateListBody>
  );
}

/** Consent, then the server's answer: issued, or why not, in the garage's words. */
function useIssue(kodeId: string, list: ListOf) {
  const failureOf = useFailureOf();
  const [submitting, setSubmitting] = useState(false);
  const [issued, setIssued] = useState<IssuedCertificate | null>(null);
  const [failure, setFailure] = useState<ReturnType<typeof failureOf> | null>(null);
  async function issue() {
    setSubmitting(true);
    setFailure(null);
    const result = await issueCertificate(kodeId);
    setSubmitting(false);
    if (result.status !== 'success') {
      setFailure(failureOf(result));
      return false;
    }
    setIssued(result.data);
    list.put(result.data);
    return true;
  }
  return { submitting, issued, failure, issue, reset: () => (setIssued(null), setFailure(null)) };
}

function CertificateDialogContent({ kodeId, onClose }: Omit<CertificateDialogProps, 'open'>) {
  const { i18n } = useLingui();
  const online = useOnline();
  const list = useCertificateList({ kodeId });
  const issuing = useIssue(kodeId, list);
  const [consented, setConsented] = useState(false);
  const [consentMissing, setConsentMissing] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    // The dialog's portal sits inside the entry form in React's tree (the timeline is part of it):
    // its submit must not bubble there and send the form's entry.
    event.stopPropagation();
    if (!consented) {
      setConsentMissing(true);
      return;
    }
    // A second certificate asks for the owner's consent again.
    if (online) void issuing.issue().then((issued) => issued && setConsented(false));
  }

  return (
    <Dialog.Content asChild>
      <form onSubmit={submit} noValidate>
        <Dialog.Header>
          <Dialog.Title>
            <Trans>Certificat kilométrique</Trans>
          </Dialog.Title>
        </Dialog.Header>
        <DialogBody>
          <Stack gap="4">
            <Text>
              <Trans>
                Le certificat montre les relevés de ce véhicule (dates, kilométrages, verdicts), signés par votre
                garage, à qui le propriétaire le donne : un acheteur peut le vérifier en ligne. Il est valable 60 jours.
              </Trans>
            </Text>
            {!online && <OfflineNotice />}
            {issuing.failure && !issuing.failure.offline && (
              <Alert.Root status="error">
                <Alert.Indicator />
                <Alert.Title>{issuing.failure.message}</Alert.Title>
              </Alert.Root>
            )}
            {issuing.failure?.offline && online && <OfflineNotice />}
            {issuing.issued && <IssuedNotice issued={issuing.issued} />}
            <Field.Root invalid={consentMissing && !consented}>
              <PlainCheckbox
                name="owner_consent"
                checked={consented}
                onCheckedChange={(checked) => {
                  setConsented(checked);
                  // Ticked, the field is answered: unticked after an issue, it asks for the next one without blame.
                  if (checked) setConsentMissing(false);
                  issuing.reset();
                }}
              >
                <Trans>Le propriétaire du véhicule a demandé ce certificat.</Trans>
              </PlainCheckbox>
              <Field.ErrorText>{errorMessage(i18n, 'owner_consent_required')}</Field.ErrorText>
            </Field.Root>
            <Stack gap="1" as="section" aria-labelledby="vehicle-certificates-title">
              <Heading as="h3" size="sm" id="vehicle-certificates-title">
                <Trans>Certificats émis pour ce véhicule</Trans>
              </Heading>
              <VehicleCertificates list={list} />
            </Stack>
          </Stack>
        </DialogBody>
        <FormDialogFooter
          submitLabel={<Trans>Émettre le certificat</Trans>}
          submitting={issuing.submitting}
          onCancel={onClose}
        />
      </form>
    </Dialog.Content>
  );
}

export function CertificateDialog({ open, kodeId, onClose }: CertificateDialogProps) {
  return (
    <DialogFrame open={open} onClose={onClose} size="lg">
      {open && <CertificateDialogContent kodeId={kodeId} onClose={onClose} />}
    </DialogFrame>
  );
}
