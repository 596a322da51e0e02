import { Avatar, Button, Menu, Portal, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useLocation } from 'wouter';
import { LogoutIcon, UserIcon } from '../../components/ui/icons';
import { IMAGES_BASE } from '../../lib/api/config';
import { logout, useSession } from '../../lib/session';
import { paths } from '../paths';

export function UserMenu() {
  const { t } = useLingui();
  const { user } = useSession();
  const [, navigate] = useLocation();
  const signOut = async () => {
    await logout();
    navigate(paths.login, { replace: true });
  };
  return (
    <Menu.Root
      onSelect={(details) => {
        if (details.value === 'profile') navigate(paths.profile);
        if (details.value === 'logout') void signOut();
      }}
    >
      <Menu.Trigger asChild>
        <Button variant="ghost" size="sm" px="1" aria-label={t`Menu du compte`}>
          <Avatar.Root size="xs" colorPalette="brand">
            <Avatar.Fallback name={user?.full_name} />
            {user?.picture && <Avatar.Image src={`${IMAGES_BASE}/${encodeURIComponent(user.picture)}`} alt="" />}
          </Avatar.Root>
          <Text as="span" hideBelow="md" maxWidth="40" truncate>
            {user?.full_name}
          </Text>
        </Button>
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
