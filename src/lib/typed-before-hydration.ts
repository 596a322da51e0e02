/**
 * What the mechanic typed into a prerendered page before the app took it over
 * (docs/ARCHITECTURE.md#prerendered-first-screens). The HTML's fields can be typed in as soon as they
 * are painted, but React hydrates them with the values it holds (empty): the text stays on screen,
 * the form's state does not have it, and the next render of the field would wipe it. So the fields
 * the HTML brought are noted before hydration; once React has hydrated a form (every form of the app
 * calls `useTypedValuesHandedOver`), each of its fields whose value is no longer the HTML's (React's
 * hydration leaves the values as they are) is handed to React as a change, as if typed then. A
 * submission asked for meanwhile (a tap on the button, Enter in a field) is held and made once the
 * values are the form's.
 */
import { useLayoutEffect, type RefObject } from 'react';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const IGNORED_TYPES = new Set(['hidden', 'file', 'submit', 'button', 'reset', 'image']);

/** The fields of the prerendered HTML not yet hydrated. */
let served = new Set<Control>();

function isToggle(control: Control): control is HTMLInputElement {
  return control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio');
}

/** The value the HTML gave the field. */
function servedValue(control: Control): string | boolean {
  if (isToggle(control)) return control.defaultChecked;
  if (control instanceof HTMLSelectElement) {
    const served = Array.from(control.options).find((option) => option.defaultSelected) ?? control.options[0];
    return served?.value ?? '';
  }
  return control.defaultValue;
}

function currentValue(control: Control): string | boolean {
  return isToggle(control) ? control.checked : control.value;
}

/** The prerendered forms not yet hydrated, and whether a submission was asked of each. */
const servedForms = new Map<HTMLFormElement, { submitAsked: boolean }>();

/** A submission of a form React has not hydrated yet is held until it has (`handOverTypedValues`). */
function holdEarlySubmission(event: Event): void {
  const form = event.target;
  const served = form instanceof HTMLFormElement ? servedForms.get(form) : undefined;
  if (!served) return;
  event.preventDefault();
  event.stopPropagation();
  served.submitAsked = true;
}

/**
 * Notes the fields and forms of the prerendered HTML in `container`, and holds their submissions until
 * they are hydrated. Called just before hydration.
 */
export function noteServedFields(container: HTMLElement): void {
  served = new Set(
    Array.from(container.querySelectorAll<Control>('input, textarea, select')).filter(
      (control) => !(control instanceof HTMLInputElement && IGNORED_TYPES.has(control.type)),
    ),
  );
  for (const form of container.querySelectorAll('form')) servedForms.set(form, { submitAsked: false });
  container.addEventListener('submit', holdEarlySubmission, { capture: true });
}

/**
 * Hands a value to React as a change. React fires onChange only when the value differs from the one
 * it last saw, which it notes through the element's own `value` (or `checked`) setter: that one is
 * set to the HTML's value, the prototype's setter to the typed one, and the event follows.
 */
function handOver(control: Control): void {
  const latest = currentValue(control);
  if (isToggle(control)) {
    control.checked = servedValue(control) as boolean;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked')?.set?.call(control, latest);
    // A plain event, not a mouse click, does not tick the box again; React reads a box's change on click.
    control.dispatchEvent(new Event('click', { bubbles: true }));
    return;
  }
  if (control instanceof HTMLSelectElement) {
    control.value = latest as string;
    control.dispatchEvent(new Event('change', { bubbles: true }));
    return;
  }
  control.value = servedValue(control) as string;
  const prototype = control instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(control, latest);
  control.dispatchEvent(new Event('input', { bubbles: true }));
}

/** Hands what was typed into the served fields of `form` over to React, once; then a held submission. */
export function handOverTypedValues(form: HTMLElement): void {
  for (const control of served) {
    if (!form.contains(control)) continue;
    served.delete(control);
    if (!control.disabled && currentValue(control) !== servedValue(control)) handOver(control);
  }
  const held = form instanceof HTMLFormElement ? servedForms.get(form) : undefined;
  servedForms.delete(form as HTMLFormElement);
  // After React has rendered the values handed over: the submission sends them.
  if (held?.submitAsked) setTimeout(() => form.isConnected && (form as HTMLFormElement).requestSubmit(), 0);
}

/**
 * For a form's element: takes over what was typed into it before the page was hydrated. A layout
 * effect runs once React has committed the form, its fields and their handlers.
 */
export function useTypedValuesHandedOver(form: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    if (form.current) handOverTypedValues(form.current);
  }, [form]);
}
