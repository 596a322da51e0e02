import { ChakraProvider, LocaleProvider } from '@chakra-ui/react';
import { LinguiContext, useLingui, type I18nContext } from '@lingui/react';
import { useEffect, useState, type ReactNode } from 'react';
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

/**
 * Lingui's context, renewed when the language changes. Lingui's own provider renews it at every
 * catalog load as well, and a part that loads its words on demand (the History tab's, say) then drew
 * the whole app again, though no text on screen changed: such a part waits for its words before it is
 * drawn (lib/lazy-catalog.ts).
 */
function I18nByLanguage({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(contextOfLanguage);
  useEffect(() => {
    let locale = shown.locale;
    const follow = () => {
      if (i18n.locale === locale) return;
      locale = i18n.locale;
      setShown(contextOfLanguage());
    };
    follow();
    return i18n.on('change', follow);
    // Subscribed once: `locale` follows what is shown from then on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return <LinguiContext.Provider value={shown.context}>{children}</LinguiContext.Provider>;
}

function contextOfLanguage(): { locale: string; context: I18nContext } {
  return { locale: i18n.locale, context: { i18n, _: i18n.t.bind(i18n) } };
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <I18nByLanguage>
      <ChakraProvider value={providedSystem}>
        <DirectionFromLanguage>
          {children}
          <ToastHost />
          <UpdatePrompt />
        </DirectionFromLanguage>
      </ChakraProvider>
    </I18nByLanguage>
  );
}
