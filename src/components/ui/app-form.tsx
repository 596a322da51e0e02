/**
 * The app's forms. A native submission does nothing (`method="dialog"` outside a dialog sends no request
 * and leaves the page where it is): a prerendered form tapped before the app has hydrated it never
 * sends what was typed, a password included, in an address; and what was typed into it before then
 * becomes the form's own once it is hydrated (docs/ARCHITECTURE.md#prerendered-first-screens).
 * Once hydrated, the form's onSubmit handles every submission. Browser validation is the app's to do.
 */
import { useRef, type ComponentProps } from 'react';
import { useTypedValuesHandedOver } from '../../lib/typed-before-hydration';

export function AppForm(props: Omit<ComponentProps<'form'>, 'method' | 'action' | 'noValidate' | 'ref'>) {
  const form = useRef<HTMLFormElement>(null);
  useTypedValuesHandedOver(form);
  return <form ref={form} method="dialog" noValidate {...props} />;
}
