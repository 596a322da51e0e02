/** Find and Scan, beside the identifier field of the new-entry form. */
import { Button, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { SearchIcon } from '../../../components/ui/icons';
import { ScanIcon } from '../components/ScanIcon';

export function LookupButtons({
  finding,
  onFind,
  onScan,
}: {
  finding: boolean;
  onFind: () => void;
  onScan: () => void;
}) {
  const { t } = useLingui();
  return (
    <>
      <Button
        type="button"
        size="lg"
        colorPalette="brand"
        variant="outline"
        minHeight="12"
        loading={finding}
        aria-label={t`Rechercher`}
        onClick={onFind}
      >
        <SearchIcon />
        <Text as="span" hideBelow="sm">
          <Trans>Rechercher</Trans>
        </Text>
      </Button>
      <Button
        type="button"
        size="lg"
        colorPalette="brand"
        variant="outline"
        minHeight="12"
        aria-label={t`Scanner`}
        onClick={onScan}
      >
        <ScanIcon />
        <Text as="span" hideBelow="md">
          <Trans>Scanner</Trans>
        </Text>
      </Button>
    </>
  );
}
