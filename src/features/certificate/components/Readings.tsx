/**
 * The certificate's readings, oldest first as it holds them: a chart of km over time, and a table of
 * each reading with its verdict in words, whether a photo backs it, which garage took it, and for a
 * correction what it replaced. Readings of a certificate that failed its check are not charted, and
 * their table says they are not vouched for.
 */
import { Heading, Stack, Table, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { CertificateReading } from '../../../../contract';
import { KmChart, type KmChartPoint } from '../../../components/KmChart';
import { formatDateTime } from '../../../lib/dates';
import { formatKm } from '../../../lib/format';
import { useLocale } from '../../../lib/i18n';
import { CORRECTION_WORDS, verdictOf } from '../words';

function pointOf(reading: CertificateReading, index: number): KmChartPoint {
  const implausible = reading.verdict === 'implausible';
  return {
    key: String(index),
    at: reading.date,
    km: reading.km,
    colour: implausible ? 'fg.error' : reading.garage === 'issuer' ? 'brand.solid' : 'fg.muted',
    data: { 'data-verdict': reading.verdict },
  };
}

export function ReadingsChart({ readings }: { readings: readonly CertificateReading[] }) {
  const { t } = useLingui();
  return (
    <KmChart
      points={readings.map(pointOf)}
      height="32"
      label={({ count, low, high }) => t`Évolution du compteur : ${count} relevés, de ${low} à ${high}`}
    />
  );
}

function CorrectionLine({ correction }: { correction: NonNullable<CertificateReading['correction']> }) {
  const { i18n } = useLingui();
  const locale = useLocale();
  const reason = i18n._(CORRECTION_WORDS[correction.reason]);
  const replaced = correction.replaced_km === null ? null : formatKm(correction.replaced_km, locale);
  return (
    <Text fontSize="xs" color="fg.muted" data-correction={correction.reason}>
      {replaced === null ? (
        <Trans>Correction ({reason})</Trans>
      ) : (
        <Trans>
          Correction ({reason}) : remplace <bdi>{replaced}</bdi>
        </Trans>
      )}
    </Text>
  );
}

function VerdictCell({ reading }: { reading: CertificateReading }) {
  const { i18n } = useLingui();
  const { verdict, notes } = verdictOf(reading);
  const implausible = reading.verdict === 'implausible';
  return (
    <>
      <Text color={implausible ? 'fg.error' : undefined} fontWeight={implausible ? 'semibold' : undefined}>
        {i18n._(verdict)}
      </Text>
      {notes.length > 0 && (
        <Text fontSize="xs" color="fg.muted">
          {notes.map((note) => i18n._(note)).join(' · ')}
        </Text>
      )}
    </>
  );
}

function ReadingRow({ reading }: { reading: CertificateReading }) {
  const locale = useLocale();
  return (
    <Table.Row data-verdict={reading.verdict}>
      <Table.Cell>
        <bdi>{formatDateTime(reading.date)}</bdi>
      </Table.Cell>
      <Table.Cell textAlign="end">
        <Text whiteSpace="nowrap" fontWeight="semibold">
          <bdi>{formatKm(reading.km, locale)}</bdi>
        </Text>
        {reading.correction && <CorrectionLine correction={reading.correction} />}
      </Table.Cell>
      <Table.Cell>
        <VerdictCell reading={reading} />
      </Table.Cell>
      <Table.Cell>{reading.photo ? <Trans>Avec photo</Trans> : <Trans>Sans photo</Trans>}</Table.Cell>
      <Table.Cell>{reading.garage === 'issuer' ? <Trans>Ce garage</Trans> : <Trans>Un autre garage</Trans>}</Table.Cell>
    </Table.Row>
  );
}

export function ReadingsTable({ readings, trusted }: { readings: readonly CertificateReading[]; trusted: boolean }) {
  return (
    <Stack as="section" gap="2" aria-labelledby="certificate-readings-title">
      <Heading as="h2" size="md" id="certificate-readings-title" color={trusted ? undefined : 'fg.error'}>
        {trusted ? <Trans>Relevés kilométriques</Trans> : <Trans>Relevés non garantis</Trans>}
      </Heading>
      {/* Words wrap in their cells (Chakra's scroll area keeps them on one line): the table fits a tablet; only a phone scrolls it. */}
      <Table.ScrollArea borderWidth="1px" rounded="md" whiteSpace="normal">
        <Table.Root size="sm" data-testid="certificate-readings" data-trusted={trusted}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>
                <Trans>Date</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">
                <Trans>Kilométrage</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader>
                <Trans>Cohérence</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader>
                <Trans>Photo du compteur</Trans>
              </Table.ColumnHeader>
              <Table.ColumnHeader>
                <Trans>Relevé par</Trans>
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {readings.map((reading, index) => (
              <ReadingRow key={index} reading={reading} />
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </Stack>
  );
}
