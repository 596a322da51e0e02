/**
 * Beside a reading's verdict, in the history and the vehicle's timeline: the reading has an odometer
 * photo (docs/PRODUCT.md#odometer-photo). An implausible reading confirmed with one says so in the
 * verdict's colour: the picture is what settles it if it is disputed.
 */
import { Badge } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import type { ReadingVerdictCode } from '../../../../contract';
import { usePhotoCatalog } from '../../../lib/photo-catalog';
import { CameraIcon } from './CameraIcon';

export interface PhotoMarkProps {
  /** The reading's verdict; null while the server has not judged it. */
  verdict: ReadingVerdictCode | null;
}

export default function PhotoMark({ verdict }: PhotoMarkProps) {
  usePhotoCatalog();
  const implausible = verdict === 'implausible';
  return (
    <Badge
      colorPalette={implausible ? 'red' : 'gray'}
      variant="outline"
      size="md"
      gap="1"
      data-photo-mark={implausible ? 'evidence' : 'photo'}
    >
      <CameraIcon boxSize="3.5" />
      {implausible ? <Trans>Photo à l’appui du relevé</Trans> : <Trans>Avec photo du compteur</Trans>}
    </Badge>
  );
}
