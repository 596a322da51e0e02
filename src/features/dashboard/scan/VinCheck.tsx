/**
 * The VIN check after a lookup (docs/PRODUCT.md#scanning-and-the-vin-check): the VIN on the car, scanned
 * or typed, against the vehicle's. A match is confirmed here; a mismatch is asked about before Insert.
 */
import { Button, chakra, HStack, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type Ref } from 'react';
import { checkVin, VIN_LENGTH } from '../../../../contract';
import VinMismatchDialog, { type VinQuestion } from './VinMismatchDialog';
import { useScanCatalog } from './catalog';
import ScanDialog from './ScanDialog';

export default function VinCheck({
  value,
  vehicleVin,
  onChange,
  inputRef,
  question,
  onAnswer,
}: {
  value: string;
  vehicleVin: string;
  /** mismatch: what Insert asks about first, null when the VIN is not a different vehicle's. */
  onChange: (value: string, mismatch: VinQuestion | null) => void;
  inputRef?: Ref<HTMLInputElement>;
  /** Insert's question when the VIN is another vehicle's (asked here, where its words load). */
  question: VinQuestion | null;
  onAnswer: (confirmed: boolean) => void;
}) {
  useScanCatalog();
  const { t } = useLingui();
  const [scanning, setScanning] = useState(false);
  const check = checkVin(value, vehicleVin);
  const change = (next: string) => {
    const result = checkVin(next, vehicleVin);
    onChange(
      next,
      result.kind === 'mismatch'
        ? { entered: result.vin, vehicleVin, checkDigitFailed: result.checkDigitFailed }
        : null,
    );
  };
  const bad = check.kind === 'invalid' || check.kind === 'mismatch';
  const id = useId();
  // Plain elements rather than Chakra's Field and Input: sharing those with this on-demand chunk would
  // split them out of the chunks every first load carries (docs/PRODUCT.md#scanning-and-the-vin-check).
  return (
    <Stack gap="1.5">
      <chakra.label htmlFor={id} textStyle="sm" fontWeight="medium">
        <Trans>Vérification du VIN</Trans>
      </chakra.label>
      <HStack gap="2" width="full" align="stretch">
        <chakra.input
          id={id}
          ref={inputRef}
          aria-describedby={`${id}-check`}
          aria-invalid={bad || undefined}
          flex="1"
          minWidth="0"
          minHeight="12"
          px="4"
          borderWidth="1px"
          borderColor={bad ? 'border.error' : 'border'}
          rounded="l2"
          bg="transparent"
          outline="none"
          _focusVisible={{
            borderColor: 'colorPalette.focusRing',
            boxShadow: '0 0 0 1px var(--chakra-colors-color-palette-focus-ring)',
          }}
          colorPalette="brand"
          name="vin_check"
          dir="ltr"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          // One more than a VIN: a door-pillar label's import "I" is dropped (contract/vin.ts).
          maxLength={VIN_LENGTH + 1}
          fontFamily="mono"
          value={value}
          onChange={(event) => change(event.target.value.toUpperCase().replace(/[^A-Z0-9]/g, ''))}
        />
        <Button
          type="button"
          size="lg"
          minHeight="12"
          colorPalette="brand"
          variant="outline"
          aria-label={t`Scanner le VIN`}
          onClick={() => setScanning(true)}
        >
          <Trans>Scanner</Trans>
        </Button>
      </HStack>
      <Text
        id={`${id}-check`}
        textStyle="sm"
        data-vin-check={check.kind}
        color={check.kind === 'match' ? 'fg.success' : bad ? 'fg.error' : 'fg.muted'}
        fontWeight={check.kind === 'match' ? 'semibold' : undefined}
      >
        {check.kind === 'match' ? (
          <Trans>VIN confirmé : c'est bien le véhicule affiché.</Trans>
        ) : check.kind === 'mismatch' ? (
          <>
            <Trans>Ce VIN ne correspond pas au véhicule affiché. Vérifiez le véhicule avant d'enregistrer.</Trans>
            {check.checkDigitFailed && (
              <>
                {' '}
                <Trans>Sa clé de contrôle (9e caractère) est fausse : il a sans doute été mal lu ou mal saisi.</Trans>
              </>
            )}
          </>
        ) : check.kind === 'invalid' ? (
          <Trans>Un VIN compte 17 caractères, lettres et chiffres, sans I, O ni Q.</Trans>
        ) : (
          <Trans>
            Facultatif : scannez le code-barres du VIN (montant de porte ou pare-brise) ou saisissez ses 17 caractères.
          </Trans>
        )}
      </Text>
      <ScanDialog
        open={scanning}
        target="vin"
        onRead={(vin) => {
          change(vin);
          setScanning(false);
        }}
        onClose={() => setScanning(false)}
      />
      <VinMismatchDialog question={question} onConfirm={() => onAnswer(true)} onCancel={() => onAnswer(false)} />
    </Stack>
  );
}
