/** Chakra v3 has no password input in its core: an input with a show/hide toggle. */
import { IconButton, Input, InputGroup, type InputProps } from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';
import { useState, type Ref } from 'react';
import { EyeIcon, EyeOffIcon } from './icons';

export interface PasswordInputProps extends Omit<InputProps, 'type'> {
  ref?: Ref<HTMLInputElement>;
}

export function PasswordInput({ ref, size = 'lg', ...props }: PasswordInputProps) {
  const { t } = useLingui();
  const [visible, setVisible] = useState(false);
  const label = visible ? t`Masquer le mot de passe` : t`Afficher le mot de passe`;
  return (
    <InputGroup
      endElementProps={{ px: '0' }}
      endElement={
        <IconButton
          type="button"
          variant="ghost"
          size={size}
          minWidth="44px"
          aria-label={label}
          title={label}
          aria-pressed={visible}
          onClick={() => setVisible((shown) => !shown)}
          disabled={props.disabled}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </IconButton>
      }
    >
      <Input ref={ref} size={size} {...props} type={visible ? 'text' : 'password'} />
    </InputGroup>
  );
}
