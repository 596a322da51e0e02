import { Button } from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';
import { lazy } from 'react';
import { currentLocale } from '../lib/i18n';
import { LANGUAGE_NAMES } from './language-names';
import { LazyMenu } from './ui/lazy-menu';
import { GlobeIcon } from './ui/icons';

const loadLanguageMenu = () => import('./LanguageMenu');
const LanguageMenu = lazy(loadLanguageMenu);

/** The language menu in the header; the menu itself loads on first use (see LazyMenu). */
export function LanguageSwitcher() {
  const { t } = useLingui();
  const locale = currentLocale();
  return (
    <LazyMenu
      menu={LanguageMenu}
      preload={() => void loadLanguageMenu()}
      menuProps={{}}
      trigger={
        <Button variant="ghost" size="sm" aria-label={t`Langue : ${LANGUAGE_NAMES[locale]}`}>
          <GlobeIcon />
          {LANGUAGE_NAMES[locale]}
        </Button>
      }
    />
  );
}
