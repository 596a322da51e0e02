/**
 * The one behaviour of every form (docs/PRODUCT.md#validation-rules): the values are checked with a
 * contract schema on every change; a field's message shows once the field was left after an edit (a
 * choice: once made) or the form submitted, never for merely leaving a field nobody has changed since
 * the form was (re)set; the server's messages for a field stay until that field changes; a
 * submit with a problem sends nothing and puts the focus on the first field in error.
 * No form library: this is all the first load carries for forms.
 */
import { useLingui } from '@lingui/react';
import { useCallback, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type * as z from 'zod/mini';
import { fieldErrors, type ApiFailure, type ErrorCode } from '../../contract';
import { apiFieldErrors, fieldErrorMessages } from '../lib/error-messages';

type FieldOf<V> = keyof V & string;
/** The fields that hold text, which an input edits through its change event. */
type TextFieldOf<V> = { [K in FieldOf<V>]: V[K] extends string ? K : never }[FieldOf<V>];
type Codes<V> = Partial<Record<FieldOf<V>, ErrorCode>>;

export interface ContractFormOptions<V> {
  /** What the schema checks when it is not the values as held (trimmed, parsed, with fixed parts). */
  input?: (values: V) => unknown;
  /** A rule the schema cannot state alone; the schema's own problem for a field comes first. */
  check?: (values: V) => Codes<V>;
}

export interface TextInputProps {
  name: string;
  value: string;
  onChange(event: ChangeEvent<HTMLInputElement>): void;
  onBlur(): void;
}

/** The problems of the form's own fields (a schema may also check what the form does not show). */
function validate<V extends object>(schema: z.ZodMiniType, values: V, options: ContractFormOptions<V>): Codes<V> {
  const found: Partial<Record<string, ErrorCode>> = {
    ...options.check?.(values),
    ...fieldErrors(schema, options.input ? options.input(values) : values),
  };
  const codes: Codes<V> = {};
  for (const field of Object.keys(values) as FieldOf<V>[]) {
    if (found[field]) codes[field] = found[field];
  }
  return codes;
}

/**
 * In the order the fields come in the form, not the order the schema lists them. Focusing scrolls the
 * control alone into view; its message shows with the render that follows, so once it is drawn the
 * whole field is brought into view too: in a dialog whose body scrolls, the last field's message would
 * otherwise stay below the fold, and the press would seem to do nothing.
 */
function focusFirstInvalid(form: HTMLFormElement, invalid: readonly string[]): void {
  const controls = Array.from(form.elements) as (HTMLElement & { name?: string })[];
  const first = controls.find((control) => control.name !== undefined && invalid.includes(control.name));
  if (!first) return;
  first.focus();
  requestAnimationFrame(() => {
    first.closest('[data-scope="field"][data-part="root"]')?.scrollIntoView({ block: 'nearest' });
  });
}

export function useContractForm<V extends object>(
  schema: z.ZodMiniType,
  initial: V | (() => V),
  options: ContractFormOptions<V> = {},
) {
  const { i18n } = useLingui();
  const [values, setValues] = useState<V>(initial);
  const [touched, setTouched] = useState<Partial<Record<FieldOf<V>, true>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);
  // A second press while the first is still being handled does nothing, even before the re-render.
  const busy = useRef(false);
  // Fields changed since the form was (re)set. An emptied form keeps the focus in its first field: the
  // next tap elsewhere leaves it, and a message appearing then would move the page under that tap.
  const edited = useRef(new Set<string>());

  const codes = validate(schema, values, options);
  const messages: Partial<Record<FieldOf<V>, string>> = fieldErrorMessages(i18n, codes);

  // The same functions at every render (they use only setters and refs): a memoised field handed one
  // is not re-rendered when another field changes.
  const touch = useCallback((field: FieldOf<V>) => setTouched((current) => ({ ...current, [field]: true })), []);
  const leave = useCallback(
    (field: FieldOf<V>) => {
      if (edited.current.has(field)) touch(field);
    },
    [touch],
  );
  const set = useCallback(<K extends FieldOf<V>>(field: K, value: V[K]) => {
    edited.current.add(field);
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors(({ [field]: _answered, ...rest }) => rest);
  }, []);
  const pick = useCallback(
    <K extends FieldOf<V>>(field: K, value: V[K]) => {
      set(field, value);
      touch(field);
    },
    [set, touch],
  );

  return {
    values,
    submitting,
    /** The message under a field, or undefined while it has none to show. */
    error: (field: FieldOf<V>): string | undefined =>
      ((touched[field] || submitted) && messages[field]) || serverErrors[field],
    set,
    /** Shows the field's message from now on, whatever was done with it (a lookup's own check). */
    touch,
    /** The field lost the focus: its message shows from now on if it was changed since the (re)set. */
    leave,
    /** A choice (select, checkbox, map) is complete once made: it counts as touched at once. */
    pick,
    /** Props for a text input (EmailInput, PasswordInput, Input) holding a field. */
    input: (field: TextFieldOf<V>): TextInputProps => ({
      name: field,
      value: values[field] as string,
      onChange: (event) => set(field, event.target.value as V[typeof field]),
      onBlur: () => leave(field),
    }),
    /** Shows the server's field messages of a refused request under their fields. */
    showServerErrors: (failure: ApiFailure) => setServerErrors(apiFieldErrors(failure)),
    /** Back to these values (or the initial ones, a lazy initial being called again) with no message shown. */
    reset: (next?: V) => {
      setValues(next ?? initial);
      edited.current.clear();
      setTouched({});
      setSubmitted(false);
      setServerErrors({});
    },
    /**
     * Handles the form's submit event: with a problem it shows every message, focuses the first
     * field in error and tells `onInvalid` which fields (in the form's order); with none it hands the
     * values to `send` and is busy until that settles.
     */
    submit: async (
      event: FormEvent<HTMLFormElement>,
      send: (values: V) => unknown,
      onInvalid?: (fields: string[]) => void,
    ) => {
      event.preventDefault();
      if (busy.current) return;
      setSubmitted(true);
      const invalid = Object.keys(codes);
      if (invalid.length > 0) {
        focusFirstInvalid(event.currentTarget, invalid);
        onInvalid?.(invalid);
        return;
      }
      busy.current = true;
      setSubmitting(true);
      try {
        await send(values);
      } finally {
        busy.current = false;
        setSubmitting(false);
      }
    },
  };
}

export type ContractForm<V extends object> = ReturnType<typeof useContractForm<V>>;
