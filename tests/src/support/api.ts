/**
 * Scripted API answers for component tests. Test files mock src/lib/api/client's apiRequest
 * (vi.mock) and answer through these builders.
 */
import type { ApiFailure, ApiResult, ApiSuccess, User } from '../../../contract';
import type { RequestOptions } from '../../../src/lib/api/client';
import type { ApiBase } from '../../../src/lib/api/config';
import { waitFor } from '@testing-library/react';
import { isValidElement, type ReactNode } from 'react';
import { expect } from 'vitest';
import { toaster } from '../../../src/components/ui/toaster-view';
import { expectVisible } from './dom';

export function ok<T>(data: T, code = 200): ApiSuccess<T> {
  return { code, status: 'success', data };
}

export function failed(code: number, message: string, fields?: Record<string, string>): ApiFailure {
  return { code, status: 'error', error: { type: code === 401 ? 'auth' : 'validation', message, fields } };
}

export function offline(): ApiFailure {
  return { code: 0, status: 'error', error: { type: 'other', reason: 'network', message: 'Failed to fetch' } };
}

export type Handler = (options: RequestOptions) => ApiResult<unknown> | Promise<ApiResult<unknown>>;

/**
 * An apiRequest stand-in answering by "base METHOD path" ("auth POST /login"); an unscripted
 * call fails the test loudly.
 */
export function scripted(handlers: Record<string, Handler>) {
  return async (base: ApiBase, path: string, options: RequestOptions = {}): Promise<ApiResult<unknown>> => {
    const key = `${base} ${options.method ?? 'GET'} ${path}`;
    const handler = handlers[key];
    if (!handler) throw new Error(`Unscripted API call: ${key}`);
    return handler(options);
  };
}

/**
 * A toast's words as they read now: the store holds words worded when drawn as an element whose
 * `words` gives them (src/components/ui/live-text.tsx).
 */
function wordsOf(node: ReactNode): ReactNode {
  if (!isValidElement<{ words?: unknown }>(node)) return node;
  return typeof node.props.words === 'function' ? (node.props.words as () => string)() : node;
}

/** The toasts currently held by the app's toaster (type, title, description). */
export function toasts() {
  return toaster.getVisibleToasts().map((toast) => ({
    type: toast.type,
    title: wordsOf(toast.title),
    description: wordsOf(toast.description),
  }));
}

/** Waits until the app shows this toast (its description, when given, included). */
export async function expectToast(expected: { type: string; title: string; description?: string }): Promise<void> {
  await waitFor(() => expect(toasts()).toContainEqual(expected));
}

export function clearToasts() {
  toaster.remove();
}

export const demoUser: User = {
  id: '00000000-0000-4000-8000-000000000001',
  full_name: 'Garage El Amel',
  email: 'garage@example.dz',
  picture: null,
  role: 'partner',
  partner: {
    phone_number: '0555123456',
    location: { latitude: 36.75, longitude: 3.06 },
  },
};

/** The error text shown under a form control, found the way assistive technology finds it. */
export function fieldErrorOf(control: HTMLElement): string | null {
  const ids = [
    control.getAttribute('aria-errormessage'),
    ...(control.getAttribute('aria-describedby') ?? '').split(' '),
  ];
  for (const id of ids) {
    const element = id ? document.getElementById(id) : null;
    if (element?.getAttribute('data-part') === 'error-text') return element.textContent;
  }
  return null;
}

/**
 * The message a field shows for a control it does not tie to it (a checkbox in a Chakra field is
 * marked aria-invalid but gets no aria-describedby): the field's error text, shown, while the control
 * is marked invalid; null otherwise.
 */
export function fieldErrorBeside(control: HTMLElement): string | null {
  if (control.getAttribute('aria-invalid') !== 'true') return null;
  const text = control.closest('[data-scope="field"][data-part="root"]')?.querySelector('[data-part="error-text"]');
  return text ? expectVisible(text).textContent : null;
}
