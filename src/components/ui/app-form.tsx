/**
 * The app's forms. A native submission does nothing (`method="dialog"` outside a dialog sends no request
 * and leaves the page where it is): a prerendered form tapped before the app has hydrated it never
 * sends what was typed, a password included, in an address (docs/ARCHITECTURE.md#prerendered-first-screens).
 * Once hydrated, the form's onSubmit handles every submission. Browser validation is the app's to do.
 */
import type { ComponentProps } from 'react';

export function AppForm(props: Omit<ComponentProps<'form'>, 'method' | 'action' | 'noValidate'>) {
  return <form method="dialog" noValidate {...props} />;
}
