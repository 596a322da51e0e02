/**
 * The vehicle's timeline after a lookup (docs/PRODUCT.md#vehicle-timeline): a small chart of km over time
 * and the latest readings with their verdicts. Loaded on demand, outside the dashboard's first load.
 * Time runs in the reading direction: left to right, right to left in Arabic.
 */
import { Badge, Box, chakra, Flex, HStack, Heading, List, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatDateTime } from '../../../lib/dates';
import { formatKm } from '../../../lib/format';
import { useLocale } from '../../../lib/i18n';
import { useVehicleTimeline, type TimelineReading } from '../../../lib/entries/timeline';
import { PhotoMarkSlot } from '../photo/slot';
import { ReasonsText, VerdictBadge } from './VerdictBadge';
import { useHistoryCatalog } from '../catalog';
import { SCROLL_EDGES_CSS, useScrollEdges } from '../../../components/ui/scroll-edges';

/** How many of the latest readings are listed under the chart. */
export const TIMELINE_LIST_SIZE = 5;

const WIDTH = 600;
const HEIGHT = 120;
const PAD = 8;

interface Point {
  x: number;
  y: number;
  reading: TimelineReading;
}

/** Oldest first, scaled into the chart's box; a single day or a single value sits in the middle. */
function plot(readings: readonly TimelineReading[]): Point[] {
  const oldestFirst = [...readings].reverse();
  const times = oldestFirst.map((reading) => Date.parse(reading.recordedAt));
  const kms = oldestFirst.map((reading) => reading.odometer);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const [k0, k1] = [Math.min(...kms), Math.max(...kms)];
  const scale = (value: number, low: number, high: number, size: number) =>
    high === low ? size / 2 : PAD + ((value - low) / (high - low)) * (size - 2 * PAD);
  return oldestFirst.map((reading, index) => ({
    x: scale(times[index]!, t0, t1, WIDTH),
    y: HEIGHT - scale(kms[index]!, k0, k1, HEIGHT),
    reading,
  }));
}

function pointColour(reading: TimelineReading): string {
  if (reading.verdict === 'implausible') return 'fg.error';
  return reading.own ? 'brand.solid' : 'fg.muted';
}

function Chart({ readings }: { readings: readonly TimelineReading[] }) {
  const { t } = useLingui();
  const locale = useLocale();
  const points = plot(readings);
  const kms = readings.map((reading) => reading.odometer);
  const newest = readings[0]!;
  const oldest = readings.at(-1)!;
  const low = formatKm(Math.min(...kms), locale);
  const high = formatKm(Math.max(...kms), locale);
  const count = readings.length;
  return (
    <Flex gap="2" align="stretch" flexShrink={0}>
      <Stack justify="space-between" fontSize="xs" color="fg.muted" textAlign="end" aria-hidden="true">
        <bdi>{high}</bdi>
        <bdi>{low}</bdi>
      </Stack>
      <Box flex="1" minWidth="0">
        <Box
          role="img"
          aria-label={t`Évolution du compteur : ${count} relevés, de ${low} à ${high}`}
          position="relative"
          height="12"
          // The axes, on the physical left: mirrored with the rest in right to left.
          borderBottomWidth="1px"
          borderLeftWidth="1px"
          borderColor="border"
          // Time runs the way the page reads.
          _rtl={{ transform: 'scaleX(-1)' }}
        >
          <chakra.svg
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            preserveAspectRatio="none"
            position="absolute"
            inset="0"
            width="full"
            height="full"
            overflow="visible"
          >
            <chakra.polyline
              points={points.map((point) => `${point.x},${point.y}`).join(' ')}
              fill="none"
              stroke="border.emphasized"
              strokeWidth="2"
              vectorEffect="non-scaling-stroke"
            />
          </chakra.svg>
          {/* Dots in HTML, so they stay round however the line's box is stretched. */}
          {points.map((point) => (
            <Box
              key={point.reading.key}
              position="absolute"
              left={`${(point.x / WIDTH) * 100}%`}
              top={`${(point.y / HEIGHT) * 100}%`}
              boxSize="3"
              transform="translate(-50%, -50%)"
              rounded="full"
              borderWidth="2px"
              borderColor={pointColour(point.reading)}
              bg={point.reading.queued ? 'bg' : pointColour(point.reading)}
              data-verdict={point.reading.verdict}
              data-queued={point.reading.queued || undefined}
            />
          ))}
        </Box>
        <HStack justify="space-between" fontSize="xs" color="fg.muted" mt="1" aria-hidden="true">
          <bdi>{formatDateTime(oldest.recordedAt)}</bdi>
          <bdi>{formatDateTime(newest.recordedAt)}</bdi>
        </HStack>
      </Box>
    </Flex>
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
      py="3"
      minHeight="0"
      flex="0 1 auto"
      aria-labelledby="vehicle-timeline-title"
    >
      <HStack justify="space-between" wrap="wrap" columnGap="2" rowGap="0" flexShrink={0}>
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
