import { IconButton } from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';
import { useColorMode } from '../lib/color-mode';
import { MoonIcon, SunIcon } from './ui/icons';

export function ColorModeToggle() {
  const { t } = useLingui();
  const [mode, setMode] = useColorMode();
  const label = mode === 'dark' ? t`Passer en mode clair` : t`Passer en mode sombre`;
  return (
    <IconButton
      variant="ghost"
      size="sm"
      boxSize="11"
      aria-label={label}
      title={label}
      onClick={() => setMode(mode === 'dark' ? 'light' : 'dark')}
    >
      {mode === 'dark' ? <SunIcon /> : <MoonIcon />}
    </IconButton>
  );
}
