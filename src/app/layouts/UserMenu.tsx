import { Button, Center, chakra, Text } from '@chakra-ui/react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { UserIcon } from '../../components/ui/icons';
import { LazyMenu } from '../../components/ui/lazy-menu';
import { retryableLazy } from '../../components/ui/retryable-lazy';
import { IMAGES_BASE } from '../../lib/api/config';
import { logout, useSession } from '../../lib/session';
import { paths } from '../../config/paths';

const AccountMenu = retryableLazy(() => import('./AccountMenu'));

/**
 * The partner's picture in a 24-pixel circle, or a person icon until it has loaded (and when there is
 * none or it cannot be fetched). Drawn here rather than with Chakra's Avatar, whose Zag machine would
 * join the dashboard's first load for one image (docs/ARCHITECTURE.md#start-up).
 */
function HeaderAvatar({ picture }: { picture: string | null | undefined }) {
  const [loaded, setLoaded] = useState<string | null>(null);
  const source = picture ? `${IMAGES_BASE}/${encodeURIComponent(picture)}` : null;
  const shown = source !== null && loaded === source;
  return (
    <Center
      aria-hidden="true"
      boxSize="6"
      flexShrink={0}
      borderRadius="full"
      overflow="hidden"
      bg="brand.muted"
      color="brand.fg"
      position="relative"
    >
      {!shown && <UserIcon boxSize="4" />}
      {source && (
        <chakra.img
          key={source}
          src={source}
          alt=""
          position="absolute"
          inset="0"
          boxSize="full"
          objectFit="cover"
          visibility={shown ? 'visible' : 'hidden'}
          onLoad={() => setLoaded(source)}
          onError={() => setLoaded(null)}
        />
      )}
    </Center>
  );
}

/** The account menu in the header; the menu itself loads on first use (see LazyMenu). */
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
  // Queued entries stay on the tablet and leave at this partner's next sign-in (docs/ARCHITECTURE.md#the-offline-model-in-practice): say so first.
  const requestSignOut = async () => {
    // The outbox's code (with the tablet's database) is not part of the first screen: loaded here if not yet.
    const count = await import('../../lib/entries').then(({ unsentCount }) => unsentCount()).catch(() => 0);
    setWaiting(count);
    if (count > 0) setConfirming(true);
    else await signOut();
  };
  return (
    <>
      <LazyMenu
        menu={AccountMenu}
        // Signing out with entries waiting asks first: have that dialog ready too.
        preloadAlso={ConfirmDialog.preload}
        menuProps={{
          onChoose: (value: string) => {
            if (value === 'profile') navigate(paths.profile);
            if (value === 'logout') void requestSignOut();
          },
        }}
        // The visible name starts the accessible name, so "press <name>" works by voice (WCAG 2.5.3).
        trigger={
          <Button
            variant="ghost"
            size="sm"
            minHeight="11"
            px="1"
            aria-label={user?.full_name ? `${user.full_name} – ${t`Menu du compte`}` : t`Menu du compte`}
          >
            {/* A person icon, not initials: the name is written beside it, and initials would be text
              the accessible name does not contain. */}
            <HeaderAvatar picture={user?.picture} />
            {/* dir="auto": a name in Latin letters is cut at its end in Arabic too, not at its start. Its
              place is kept from the start: the name comes once the session is known, after the page's
              frame was painted, and must not push the header's buttons aside (a layout shift). */}
            <Text as="span" hideBelow="md" width="40" textAlign="start" truncate dir="auto">
              {user?.full_name}
            </Text>
          </Button>
        }
      />
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
