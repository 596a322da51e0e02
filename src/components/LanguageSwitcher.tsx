import { Button, Menu, Portal } from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';
import { activateLocale, currentLocale, LOCALES, type Locale } from '../lib/i18n';
import { GlobeIcon } from './ui/icons';

/** Each language names itself, so a mechanic can find his own whatever is showing. */
const LANGUAGE_NAMES: Record<Locale, string> = { fr: 'Français', ar: 'العربية', en: 'English' };

export function LanguageSwitcher() {
  const { t } = useLingui();
  const locale = currentLocale();
  return (
    <Menu.Root onSelect={(details) => void activateLocale(details.value as Locale)}>
      <Menu.Trigger asChild>
        <Button variant="ghost" size="sm" aria-label={t`Langue : ${LANGUAGE_NAMES[locale]}`}>
          <GlobeIcon />
          {LANGUAGE_NAMES[locale]}
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            <Menu.RadioItemGroup value={locale}>
              {LOCALES.map((code) => (
                <Menu.RadioItem key={code} value={code} lang={code} dir={code === 'ar' ? 'rtl' : 'ltr'}>
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
