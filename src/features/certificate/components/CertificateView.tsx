/**
 * A certificate as fetched and checked: its number beside its QR code (what a person types or scans
 * from paper), what the check found, its status, the vehicle, the issuing garage, and the readings.
 * Printed, the same on one A4 page (../print-styles.ts).
 */
import { Box, Button, DataList, Flex, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { certificatePath, type CertificatePayload, type PublicCertificate } from '../../../../contract';
import { ShareLinkButton } from '../../../components/ShareLinkButton';
import { formatDateTime } from '../../../lib/dates';
import { PRINT_HIDDEN } from '../print-styles';
import { trustworthy, type Verification } from '../verify';
import { CertificateStatus } from './CertificateStatus';
import { QrCode } from './QrCode';
import { ReadingsChart, ReadingsTable } from './Readings';
import { VerificationNotice } from './VerificationNotice';

function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel minWidth="32">{label}</DataList.ItemLabel>
      <DataList.ItemValue>{children}</DataList.ItemValue>
    </DataList.Item>
  );
}

function Facts({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <Stack as="section" gap="2">
      <Heading as="h2" size="md">
        {title}
      </Heading>
      <DataList.Root orientation="horizontal" size="sm" gap="1">
        {children}
      </DataList.Root>
    </Stack>
  );
}

function VehicleFacts({ vehicle }: { vehicle: CertificatePayload['vehicle'] }) {
  return (
    <Facts title={<Trans>Véhicule</Trans>}>
      <Fact label={<Trans>Marque et modèle</Trans>}>
        <bdi>
          {vehicle.brand} {vehicle.model}
        </bdi>
      </Fact>
      <Fact label={<Trans>Année</Trans>}>{vehicle.year}</Fact>
      <Fact label="VIN">
        <Text as="span" fontFamily="mono" dir="ltr">
          {vehicle.vin}
        </Text>
      </Fact>
      <Fact label="KODE ID">
        <Text as="span" fontFamily="mono" dir="ltr">
          {vehicle.kode_id}
        </Text>
      </Fact>
    </Facts>
  );
}

function IssuerFacts({ payload }: { payload: CertificatePayload }) {
  return (
    <Facts title={<Trans>Émis par</Trans>}>
      <Fact label={<Trans>Garage</Trans>}>
        <bdi>{payload.issuer.name}</bdi>
      </Fact>
      {payload.issuer.city && (
        <Fact label={<Trans>Ville</Trans>}>
          <bdi>{payload.issuer.city}</bdi>
        </Fact>
      )}
      <Fact label={<Trans>Émis le</Trans>}>
        <bdi>{formatDateTime(payload.issued_at)}</bdi>
      </Fact>
      <Fact label={<Trans>Valable jusqu’au</Trans>}>
        <bdi>{formatDateTime(payload.valid_until)}</bdi>
      </Fact>
    </Facts>
  );
}

/** The title, then the QR code with the number beside it, in type large enough to copy from paper, and the address. */
function Masthead({ id, address }: { id: string; address: string }) {
  const { t } = useLingui();
  return (
    <Stack gap="3">
      <Heading as="h1" size="2xl">
        <Trans>Certificat kilométrique</Trans>
      </Heading>
      <Flex gap="4" align="center" wrap="wrap">
        <Box boxSize="40" flexShrink={0} data-certificate-qr="" data-testid="certificate-qr">
          <QrCode value={address} label={t`QR code de ce certificat : ${address}`} />
        </Box>
        <Stack gap="1" minWidth="0">
          <Text color="fg.muted">
            <Trans>Numéro du certificat</Trans>
          </Text>
          <Text
            fontFamily="mono"
            fontSize={{ base: '2xl', md: '3xl' }}
            fontWeight="bold"
            letterSpacing="wider"
            dir="ltr"
            textAlign="start"
            _print={{ fontSize: '20pt' }}
            data-testid="certificate-id"
          >
            {id}
          </Text>
          <Text fontSize="sm" color="fg.muted" dir="ltr" textAlign="start" wordBreak="break-all">
            {address}
          </Text>
        </Stack>
      </Flex>
    </Stack>
  );
}

function Actions({ id, address, payload }: { id: string; address: string; payload: CertificatePayload }) {
  const { t } = useLingui();
  const { brand, model, year } = payload.vehicle;
  return (
    <HStack gap="2" wrap="wrap" {...PRINT_HIDDEN}>
      <Button variant="solid" colorPalette="brand" minHeight="11" onClick={() => window.print()}>
        <Trans>Imprimer</Trans>
      </Button>
      <ShareLinkButton
        url={address}
        title={t`Certificat kilométrique ${id}`}
        text={t`Relevés kilométriques certifiés : ${brand} ${model} ${year}`}
      />
    </HStack>
  );
}

export function CertificateView(props: {
  id: string;
  answer: PublicCertificate;
  verification: Verification;
  onRetry: () => void;
}) {
  const { payload } = props.answer.certificate;
  const address = new URL(certificatePath(props.id), window.location.origin).href;
  const trusted = trustworthy(props.verification);
  return (
    <Stack gap="5" data-certificate-page="">
      <Masthead id={props.id} address={address} />
      <Actions id={props.id} address={address} payload={payload} />
      <VerificationNotice verification={props.verification} onRetry={props.onRetry} />
      <CertificateStatus answer={props.answer} />
      {/* A Box rather than Grid or SimpleGrid: either would split out of the dashboard's first load into a
        chunk of its own, shared with this page (docs/ARCHITECTURE.md#start-up). */}
      <Box
        display="grid"
        gridTemplateColumns={{ base: '1fr', md: 'repeat(2, minmax(0, 1fr))' }}
        gap="5"
        data-print-columns=""
      >
        <VehicleFacts vehicle={payload.vehicle} />
        <IssuerFacts payload={payload} />
      </Box>
      {trusted && payload.readings.length > 0 && <ReadingsChart readings={payload.readings} />}
      <ReadingsTable readings={payload.readings} trusted={trusted} />
    </Stack>
  );
}
