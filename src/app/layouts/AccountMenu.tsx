/** The account menu itself, loaded on first use (UserMenu). */
import { Menu, Portal } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { LogoutIcon, UserIcon } from '../../components/ui/icons';
import { HEADER_MENU_POSITIONING, useOpenOnMount, type LazyMenuBaseProps } from '../../components/ui/lazy-menu';

export default function AccountMenu({
  trigger,
  openOnMount,
  onChoose,
}: LazyMenuBaseProps & { onChoose: (value: string) => void }) {
  const triggerRef = useOpenOnMount(openOnMount);
  return (
    <Menu.Root positioning={HEADER_MENU_POSITIONING} onSelect={(details) => onChoose(details.value)}>
      <Menu.Trigger asChild ref={triggerRef}>
        {trigger}
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minWidth="44">
            <Menu.Item value="profile">
              <UserIcon />
              <Trans>Profil</Trans>
            </Menu.Item>
            <Menu.Item value="logout" color="fg.error">
              <LogoutIcon />
              <Trans>Se déconnecter</Trans>
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
