/** The found vehicle's registry details, read-only, under the identifier (empty until a vehicle is found). */
import { Field, Input, SimpleGrid } from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';
import type { Vehicle } from '../../../../contract';

function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <Field.Root readOnly>
      <Field.Label>{label}</Field.Label>
      <Input size="lg" readOnly value={value} dir="ltr" tabIndex={value ? 0 : -1} />
    </Field.Root>
  );
}

export function VehicleSummary({ vehicle }: { vehicle: Vehicle | null }) {
  const { t } = useLingui();
  return (
    <SimpleGrid columns={2} columnGap="4" rowGap="2">
      <ReadOnlyField label={t`VIN`} value={vehicle?.vin ?? ''} />
      <ReadOnlyField label={t`Modèle`} value={vehicle?.name ?? ''} />
      <ReadOnlyField label={t`Marque`} value={vehicle?.brand ?? ''} />
      <ReadOnlyField label={t`Année`} value={vehicle ? String(vehicle.year) : ''} />
    </SimpleGrid>
  );
}
