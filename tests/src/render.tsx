/**
 * Renders a component the way the app does (Chakra, Lingui with French active, a memory router
 * for wouter, caught errors reported as main.tsx does), for component tests in jsdom.
 */
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { AppProviders } from '../../src/app/providers';
import { reportCaughtError } from '../../src/components/ui/chunk-error-boundary';
import { activateLocale, type Locale } from '../../src/lib/i18n';

export interface RenderOptions {
  path?: string;
  locale?: Locale;
}

export async function renderWithApp(
  ui: ReactElement,
  options: RenderOptions = {},
): Promise<RenderResult & { location: ReturnType<typeof memoryLocation> }> {
  await activateLocale(options.locale ?? 'fr');
  const location = memoryLocation({ path: options.path ?? '/', record: true });
  const result = render(
    <AppProviders>
      <Router hook={location.hook}>{ui}</Router>
    </AppProviders>,
    // As main.tsx: errors a boundary caught are reported the app's way.
    { onCaughtError: reportCaughtError },
  );
  return Object.assign(result, { location });
}
