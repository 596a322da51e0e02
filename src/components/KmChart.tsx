/**
 * A small chart of a vehicle's km over time: its line, a dot per reading, the lowest and highest km
 * beside it and the first and last dates under it. Time runs the way the page reads: left to right,
 * right to left in Arabic. It has no words of its own: its caller names it (`label`), so the chart
 * stays out of every catalog.
 */
import { Box, chakra, Flex, HStack, Stack, type BoxProps } from '@chakra-ui/react';
import { formatDateTime } from '../lib/dates';
import { formatKm } from '../lib/format';
import { useLocale } from '../lib/i18n';

export interface KmChartPoint {
  key: string;
  /** ISO 8601: when the reading was taken. */
  at: string;
  km: number;
  /** A colour token: the dot's border, and its fill unless `hollow`. */
  colour: string;
  hollow?: boolean;
  /** What the dot stands for, for styles and tests (`data-verdict`, …). */
  data?: Record<`data-${string}`, string | undefined>;
}

/** What the chart's name may say: the number of readings and the km range, written for the language. */
export interface KmChartSummary {
  count: number;
  low: string;
  high: string;
}

const WIDTH = 600;
const HEIGHT = 120;
const PAD = 8;

/** Scaled into the box, with a margin; a single day or a single value sits in the middle. */
function scale(value: number, low: number, high: number, size: number): number {
  return high === low ? size / 2 : PAD + ((value - low) / (high - low)) * (size - 2 * PAD);
}

/** Oldest first, each point at its place in the chart's box. */
function plot(points: readonly KmChartPoint[]) {
  const oldestFirst = [...points].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const times = oldestFirst.map((point) => Date.parse(point.at));
  const kms = oldestFirst.map((point) => point.km);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const [k0, k1] = [Math.min(...kms), Math.max(...kms)];
  return oldestFirst.map((point, index) => ({
    x: scale(times[index]!, t0, t1, WIDTH),
    y: HEIGHT - scale(point.km, k0, k1, HEIGHT),
    point,
  }));
}

/** At least one point. `height`: the line's box, a size token (or one per breakpoint). */
export function KmChart(props: {
  points: readonly KmChartPoint[];
  label: (summary: KmChartSummary) => string;
  height?: BoxProps['height'];
}) {
  const locale = useLocale();
  const placed = plot(props.points);
  const kms = props.points.map((point) => point.km);
  const low = formatKm(Math.min(...kms), locale);
  const high = formatKm(Math.max(...kms), locale);
  return (
    <Flex gap="2" align="stretch" flexShrink={0} data-km-chart="">
      <Stack justify="space-between" fontSize="xs" color="fg.muted" textAlign="end" aria-hidden="true">
        <bdi>{high}</bdi>
        <bdi>{low}</bdi>
      </Stack>
      <Box flex="1" minWidth="0">
        <Box
          role="img"
          aria-label={props.label({ count: props.points.length, low, high })}
          // A picture, not an icon: any size is right for it (the layout gate's audit).
          data-illustration=""
          position="relative"
          height={props.height ?? '12'}
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
              points={placed.map(({ x, y }) => `${x},${y}`).join(' ')}
              fill="none"
              stroke="border.emphasized"
              strokeWidth="2"
              vectorEffect="non-scaling-stroke"
            />
          </chakra.svg>
          {/* Dots in HTML, so they stay round however the line's box is stretched. */}
          {placed.map(({ x, y, point }) => (
            <Box
              key={point.key}
              position="absolute"
              left={`${(x / WIDTH) * 100}%`}
              top={`${(y / HEIGHT) * 100}%`}
              boxSize="3"
              transform="translate(-50%, -50%)"
              rounded="full"
              borderWidth="2px"
              borderColor={point.colour}
              bg={point.hollow ? 'bg' : point.colour}
              {...point.data}
            />
          ))}
        </Box>
        <HStack justify="space-between" fontSize="xs" color="fg.muted" mt="1" aria-hidden="true">
          <bdi>{formatDateTime(placed[0]!.point.at)}</bdi>
          <bdi>{formatDateTime(placed.at(-1)!.point.at)}</bdi>
        </HStack>
      </Box>
    </Flex>
  );
}
