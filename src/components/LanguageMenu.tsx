/** The language menu itself, loaded on first use (LanguageSwitcher). */
import { Menu, Portal } from '@chakra-ui/react';
import { notifyChunkFailure } from './ui/chunk-error-boundary';
import { HEADER_MENU_POSITIONING, useOpenOnMount, type LazyMenuBaseProps } from './ui/lazy-menu';
import { activateLocale, directionOf, LOCALES, useLocale, type Locale } from '../lib/i18n';
import { LANGUAGE_NAMES } from './language-names';

/** Switches language; a catalog that cannot be fetched leaves the page as it is and offers Retry. */
function chooseLanguage(locale: Locale): void {
  activateLocale(locale).catch(() => notifyChunkFailure(() => chooseLanguage(locale)));
}

export default function LanguageMenu({ trigger, openOnMount }: LazyMenuBaseProps) {
  const triggerRef = useOpenOnMount(openOnMount);
  const locale = useLocale();
  return (
    <Menu.Root positioning={HEADER_MENU_POSITIONING} onSelect={(details) => chooseLanguage(details.value as Locale)}>
      <Menu.Trigger asChild ref={triggerRef}>
        {trigger}
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.RadioItemGroup value={locale}>
              {LOCALES.map((code) => (
                <Menu.RadioItem key={code} value={code} lang={code} dir={directionOf(code)}>
                  <Menu.ItemIndicator />
                  {LANGUAGE_NAMES[code]}
                </Menu.RadioItem>
              ))}
            </Menu.RadioItemGroup>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
