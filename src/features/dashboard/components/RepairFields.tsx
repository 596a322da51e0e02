/** The fields a mechanic fills in, shared by the new-entry form and the correction dialog. */
import { Box, Field, HStack, Input, NativeSelect } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { memo, type ReactNode } from 'react';
import type { RepairType } from '../../../../contract';
import { PlainCheckbox } from '../../../components/ui/plain-checkbox';
import { KM_UNIT } from '../../../lib/format';
import { useLocale } from '../../../lib/i18n';
import { localized } from '../../../lib/localized';
import { useRepairTypes } from '../data/repair-types';
import { cleanKodeId, cleanOdometer, type RepairFormState } from '../validation';

/** Each field's message, in words, from the form hook (src/hooks/use-contract-form.ts). */
type FieldError = string | undefined;

function ErrorText({ error }: { error: FieldError }) {
  return error ? <Field.ErrorText>{error}</Field.ErrorText> : null;
}

function KodeIdFieldInputs({
  value,
  onChange,
  onBlur,
  onEnter,
  error,
  action,
  readOnly = false,
}: {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  onEnter?: () => void;
  error: FieldError;
  /** A button beside the input (Find). */
  action?: ReactNode;
  /** Shown, not editable (a correction keeps the vehicle unless it corrects the vehicle). */
  readOnly?: boolean;
}) {
  return (
    <Field.Root invalid={error !== undefined} required readOnly={readOnly}>
      <Field.Label>
        <Trans>Identifiant du véhicule (KODE ID)</Trans>
      </Field.Label>
      <HStack gap="2" width="full" align="stretch">
        <Input
          flex="1"
          name="kode_id"
          size="lg"
          dir="ltr"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={10}
          fontFamily="mono"
          letterSpacing="wider"
          value={value}
          onChange={(event) => onChange(cleanKodeId(event.target.value))}
          onBlur={onBlur}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && onEnter) {
              event.preventDefault();
              onEnter();
            }
          }}
        />
        {action}
      </HStack>
      <ErrorText error={error} />
    </Field.Root>
  );
}

function RepairTypeFieldInputs(props: {
  value: string;
  onChange: (value: string) => void;
  error: FieldError;
  types: readonly RepairType[] | undefined;
}) {
  const { t } = useLingui();
  const locale = useLocale();
  const loading = props.types === undefined;
  return (
    <Field.Root invalid={props.error !== undefined} required>
      <Field.Label>
        <Trans>Type de panne</Trans>
      </Field.Label>
      <NativeSelect.Root size="lg" disabled={loading}>
        <NativeSelect.Field
          name="repair_type_id"
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        >
          <option value="">{loading ? t`Chargement…` : t`Choisir un type`}</option>
          {props.types?.map((type) => (
            <option key={type.id} value={type.id}>
              {localized({ ...type }, 'name', locale)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {props.types !== undefined && props.types.length === 0 && (
        <Field.HelperText>
          <Trans>La liste des types sera disponible à la prochaine connexion.</Trans>
        </Field.HelperText>
      )}
      <ErrorText error={props.error} />
    </Field.Root>
  );
}

function OdometerFieldInputs({
  value,
  onChange,
  onBlur,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error: FieldError;
}) {
  const locale = useLocale();
  return (
    <Field.Root invalid={error !== undefined} required>
      <Field.Label>
        <Trans>Kilométrage</Trans>
      </Field.Label>
      {/* The digits left to right in every language, the unit in the page's language ("كم" in Arabic)
        drawn over the input's end (Chakra's InputGroup would add 1.3 KB to the dashboard's first load
        for it). */}
      <Box position="relative" width="full" dir="ltr">
        <Input
          pe="10"
          name="odometer"
          size="lg"
          dir="ltr"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          value={value}
          onChange={(event) => onChange(cleanOdometer(event.target.value))}
          onBlur={onBlur}
        />
        <Box
          as="span"
          aria-hidden="true"
          position="absolute"
          insetEnd="3"
          top="50%"
          transform="translateY(-50%)"
          color="fg.muted"
          pointerEvents="none"
        >
          {KM_UNIT[locale]}
        </Box>
      </Box>
      <Field.HelperText>
        <Trans>En kilomètres entiers, tel qu'affiché au compteur.</Trans>
      </Field.HelperText>
      <ErrorText error={error} />
    </Field.Root>
  );
}

function ConsentFieldInputs(props: { checked: boolean; onChange: (checked: boolean) => void; error: FieldError }) {
  return (
    <Field.Root invalid={props.error !== undefined} required>
      <PlainCheckbox name="consented" checked={props.checked} onCheckedChange={props.onChange}>
        <Trans>Je confirme que les informations saisies sont exactes</Trans>
      </PlainCheckbox>
      <ErrorText error={props.error} />
    </Field.Root>
  );
}

// Memoised: a keystroke in one field of the entry form re-renders that field alone (the form hands
// each the same handlers at every render: use-stable-callbacks.ts).
export const KodeIdField = memo(KodeIdFieldInputs);
export const RepairTypeField = memo(RepairTypeFieldInputs);
export const OdometerField = memo(OdometerFieldInputs);
export const ConsentField = memo(ConsentFieldInputs);

/**
 * The four fields of an entry bound to a form, as both correction dialogs show them (the new-entry form
 * lays its own out around Find and the vehicle's details).
 */
export function EntryFields(props: { form: RepairFormState; kodeIdReadOnly?: boolean; odometerNote?: ReactNode }) {
  const { form } = props;
  const types = useRepairTypes();
  return (
    <>
      <KodeIdField
        value={form.values.kode_id}
        readOnly={props.kodeIdReadOnly}
        error={form.error('kode_id')}
        onChange={(value) => form.set('kode_id', value)}
        onBlur={() => form.leave('kode_id')}
      />
      <RepairTypeField
        value={form.values.repair_type_id}
        types={types}
        error={form.error('repair_type_id')}
        onChange={(value) => form.pick('repair_type_id', value)}
      />
      <div>
        <OdometerField
          value={form.values.odometer}
          error={form.error('odometer')}
          onChange={(value) => form.set('odometer', value)}
          onBlur={() => form.leave('odometer')}
        />
        {props.odometerNote}
      </div>
      <ConsentField
        checked={form.values.consented}
        error={form.error('consented')}
        onChange={(checked) => form.pick('consented', checked)}
      />
    </>
  );
}
