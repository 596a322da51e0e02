import { ChakraProvider, LocaleProvider } from '@chakra-ui/react';
import { I18nProvider, useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
import { ToastHost } from '../components/ui/toaster';
import { UpdatePrompt } from '../components/UpdatePrompt';
import { i18n } from '../lib/i18n';
import { pageCarriesGlobalStyles, withoutGlobalStyles } from './global-styles';
import { system } from './theme';

/** The built pages carry the global styles; Chakra inserts them only where a page does not (the dev server). */
const providedSystem = pageCarriesGlobalStyles() ? withoutGlobalStyles(system) : system;

/** Chakra learns the direction from the active language, so the layout mirrors in Arabic. */
function DirectionFromLanguage({ children }: { children: ReactNode }) {
  const { i18n: active } = useLingui();
  return <LocaleProvider locale={active.locale === 'ar' ? 'ar-DZ' : `${active.locale}-DZ`}>{children}</LocaleProvider>;
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <I18nProvider i18n={i18n}>
      <ChakraProvider value={providedSystem}>
        <DirectionFromLanguage>
          {children}
          <ToastHost />
          <UpdatePrompt />
        </DirectionFromLanguage>
      </ChakraProvider>
    </I18nProvider>
  );
}
