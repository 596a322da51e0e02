import { Button } from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';
import { useLocale } from '../lib/i18n';
import { LANGUAGE_NAMES } from './language-names';
import { LazyMenu } from './ui/lazy-menu';
import { retryableLazy } from './ui/retryable-lazy';
import { GlobeIcon } from './ui/icons';

const LanguageMenu = retryableLazy(() => import('./LanguageMenu'));

/** The language menu in the header; the menu itself loads on first use (see LazyMenu). */
export function LanguageSwitcher() {
  const { t } = useLingui();
  const locale = useLocale();
  return (
    <LazyMenu
      menu={LanguageMenu}
      menuProps={{}}
      trigger={
        <Button variant="ghost" size="sm" minHeight="11" aria-label={t`Langue : ${LANGUAGE_NAMES[locale]}`}>
          <GlobeIcon />
          {LANGUAGE_NAMES[locale]}
        </Button>
      }
    />
  );
}
