/**
 * The vehicle's timeline after a lookup (docs/PRODUCT.md#vehicle-timeline): a small chart of km over time
 * and the latest readings with their verdicts. Loaded on demand, outside the dashboard's first load.
 * Time runs in the reading direction: left to right, right to left in Arabic.
 */
import { Badge, Box, HStack, Heading, List, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatDateTime } from '../../../lib/dates';
import { formatKm } from '../../../lib/format';
import { useLocale } from '../../../lib/i18n';
import { useVehicleTimeline, type TimelineReading } from '../../../lib/entries/timeline';
import { PhotoMarkSlot } from '../photo/slot';
import { ReasonsText, VerdictBadge } from './VerdictBadge';
import { useHistoryCatalog } from '../catalog';
import { SCROLL_EDGES_CSS, useScrollEdges } from '../../../components/ui/scroll-edges';
import { CertificateButton } from '../certificates/CertificateButton';
import { KmChart, type KmChartPoint } from '../../../components/KmChart';

/** How many of the latest readings are listed under the chart. */
export const TIMELINE_LIST_SIZE = 5;

function pointColour(reading: TimelineReading): string {
  if (reading.verdict === 'implausible') return 'fg.error';
  return reading.own ? 'brand.solid' : 'fg.muted';
}

/** A dot per reading: red when implausible, the brand's colour for this garage's, hollow while queued. */
function pointOf(reading: TimelineReading): KmChartPoint {
  return {
    key: reading.key,
    at: reading.recordedAt,
    km: reading.odometer,
    colour: pointColour(reading),
    hollow: reading.queued,
    data: { 'data-verdict': reading.verdict, 'data-queued': reading.queued ? 'true' : undefined },
  };
}

function Chart({ readings }: { readings: readonly TimelineReading[] }) {
  const { t } = useLingui();
  return (
    <KmChart
      points={readings.map(pointOf)}
      // On a landscape tablet the section has the column's height left, and its list's first line comes first.
      height={{ base: '12', lg: '8' }}
      label={({ count, low, high }) => t`Évolution du compteur : ${count} relevés, de ${low} à ${high}`}
    />
  );
}

function ReadingLine({ reading, first }: { reading: TimelineReading; first: boolean }) {
  const locale = useLocale();
  return (
    <List.Item
      display="flex"
      flexWrap="wrap"
      alignItems="center"
      columnGap="2"
      rowGap="0.5"
      py="1"
      data-verdict={reading.verdict}
    >
      <Text as="span" fontWeight="semibold" minWidth="24" textAlign="end">
        <bdi>{formatKm(reading.odometer, locale)}</bdi>
      </Text>
      <Text as="span" color="fg.muted" fontSize="sm">
        <bdi>{formatDateTime(reading.recordedAt)}</bdi>
      </Text>
      <VerdictBadge verdict={reading.verdict} first={first} />
      {reading.photo && <PhotoMarkSlot verdict={reading.verdict} />}
      <Badge variant="outline" size="sm">
        {reading.own ? <Trans>Votre garage</Trans> : <Trans>Autre garage</Trans>}
      </Badge>
      {reading.queued && (
        <Badge colorPalette="orange" variant="subtle" size="sm">
          <Trans>En attente d’envoi</Trans>
        </Badge>
      )}
      <Box flexBasis="full">
        <ReasonsText reasons={reading.reasons} />
      </Box>
    </List.Item>
  );
}

/**
 * The latest readings, newest first. The list keeps to a few lines and scrolls
 * (fading at its edge while more lies below), so the whole entry stays on one screen.
 */
function LatestReadings({ readings }: { readings: readonly TimelineReading[] }) {
  const { t } = useLingui();
  const { ref, edges } = useScrollEdges<HTMLDivElement>();
  return (
    <Box
      ref={ref}
      {...edges}
      // While it scrolls, the keyboard can reach it to scroll it too (its lines hold nothing focusable).
      tabIndex={edges['data-more-above'] !== undefined || edges['data-more-below'] !== undefined ? 0 : undefined}
      // A few lines on a portrait tablet; on a landscape one what the column leaves (RepairForm).
      maxHeight={{ base: '20', lg: 'none' }}
      minHeight="7"
      flex="0 1 auto"
      overflowY="auto"
      css={SCROLL_EDGES_CSS}
    >
      <List.Root variant="plain" gap="0" aria-label={t`Derniers relevés`}>
        {readings.slice(0, TIMELINE_LIST_SIZE).map((reading, index) => (
          // Newest first: the last of all is the vehicle's first reading.
          <ReadingLine key={reading.key} reading={reading} first={index === readings.length - 1} />
        ))}
      </List.Root>
    </Box>
  );
}

export default function VehicleTimeline({ kodeId }: { kodeId: string }) {
  useHistoryCatalog();
  const timeline = useVehicleTimeline(kodeId);
  if (!timeline) return null;
  const { readings, fetchedAt } = timeline;
  return (
    <Stack
      as="section"
      gap="2"
      borderWidth="1px"
      rounded="l2"
      px="4"
      // A landscape tablet gives the section the column's height left: its title row holds the
      // certificate's button too, so less padding leaves the list its line.
      py={{ base: '3', lg: '2' }}
      minHeight="0"
      flex="0 1 auto"
      aria-labelledby="vehicle-timeline-title"
    >
      <HStack justify="space-between" align="start" columnGap="2" rowGap="1" flexShrink={0}>
        <HStack wrap="wrap" columnGap="2" rowGap="0" minWidth="0">
          <Heading as="h2" size="sm" id="vehicle-timeline-title">
            <Trans>Relevés du véhicule</Trans>
          </Heading>
          <Text fontSize="xs" color="fg.muted" data-testid="timeline-fetched-at">
            {fetchedAt ? (
              <Trans>
                Relevés de tous les garages au <bdi>{formatDateTime(fetchedAt)}</bdi>
              </Trans>
            ) : (
              <Trans>Relevés des autres garages pas encore chargés sur cette tablette</Trans>
            )}
          </Text>
        </HStack>
        <CertificateButton kodeId={kodeId} />
      </HStack>
      {readings.length === 0 ? (
        <Text color="fg.muted" fontSize="sm">
          <Trans>Aucun relevé pour ce véhicule.</Trans>
        </Text>
      ) : (
        <>
          {/* A line needs two points: one reading is said in words, in the list below. */}
          {readings.length >= 2 && <Chart readings={readings} />}
          <LatestReadings readings={readings} />
        </>
      )}
    </Stack>
  );
}
