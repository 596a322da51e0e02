import { Avatar, Button, Menu, Portal, Text } from '@chakra-ui/react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { LogoutIcon, UserIcon } from '../../components/ui/icons';
import { IMAGES_BASE } from '../../lib/api/config';
import { logout, useSession } from '../../lib/session';
import { unsentCount } from '../../lib/sync';
import { paths } from '../paths';

export function UserMenu() {
  const { t } = useLingui();
  const { user } = useSession();
  const [, navigate] = useLocation();
  const [confirming, setConfirming] = useState(false);
  const [waiting, setWaiting] = useState(0);
  const [signingOut, setSigningOut] = useState(false);
  const signOut = async () => {
    setSigningOut(true);
    try {
      await logout();
    } finally {
      setSigningOut(false);
      setConfirming(false);
    }
    navigate(paths.login, { replace: true });
  };
  // Queued entries stay on the tablet and leave at this partner's next sign-in (DESIGN.md section 3): say so first.
  const requestSignOut = async () => {
    const count = await unsentCount().catch(() => 0);
    setWaiting(count);
    if (count > 0) setConfirming(true);
    else await signOut();
  };
  return (
    <>
      <Menu.Root
        onSelect={(details) => {
          if (details.value === 'profile') navigate(paths.profile);
          if (details.value === 'logout') void requestSignOut();
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
      <ConfirmDialog
        open={confirming}
        tone="danger"
        title={<Trans>Se déconnecter ?</Trans>}
        confirmLabel={<Trans>Se déconnecter</Trans>}
        cancelLabel={<Trans>Rester connecté</Trans>}
        loading={signingOut}
        onConfirm={() => void signOut()}
        onCancel={() => setConfirming(false)}
      >
        <Text>
          {t`${plural(waiting, {
            one: "# saisie attend d'être envoyée. Elle reste sur cette tablette et partira à votre prochaine connexion.",
            other:
              "# saisies attendent d'être envoyées. Elles restent sur cette tablette et partiront à votre prochaine connexion.",
          })}`}
        </Text>
      </ConfirmDialog>
    </>
  );
}
