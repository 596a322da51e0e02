/**
 * The profile's "Appareils connectés" section (docs/PRODUCT.md#connected-devices): the devices signed in
 * to the partner's account, this one marked, "Déconnecter" on each other one and "Déconnecter tous les
 * autres", each behind a confirmation; then the recent sign-ins with their devices. It loads with its
 * own words (src/lib/devices-catalog.ts), after the profile's form.
 */
import { Badge, Box, Button, Card, DataList, Heading, HStack, List, Stack, Text } from '@chakra-ui/react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { LoadingSpinner } from '../../../components/ui/loading-spinner';
import { notify } from '../../../components/ui/toaster';
import { formatDateTime } from '../../../lib/dates';
import { useDevicesCatalog } from '../../../lib/devices-catalog';
import { apiFailureMessage } from '../../../lib/error-messages';
import type { DeviceSession } from '../api/list-sessions';
import type { SignIn } from '../api/list-sign-ins';
import { useConnectedDevices } from './use-connected-devices';

/** The anchor of the section on /profile. */
export const CONNECTED_DEVICES_ID = 'connected-devices';

type Confirming = { kind: 'one'; session: DeviceSession } | { kind: 'others'; count: number } | null;

/** The device as the server could tell it, or "Appareil inconnu"; Latin words keep their order in Arabic. */
function DeviceName({ device, id }: { device: string; id?: string }) {
  return (
    <Text as="span" id={id} fontWeight="semibold" dir={device ? 'auto' : undefined} wordBreak="break-word">
      {device || <Trans>Appareil inconnu</Trans>}
    </Text>
  );
}

/** Dates, addresses: left to right in every language (docs/PRODUCT.md#language-and-direction). */
const Ltr = ({ children }: { children: ReactNode }) => <bdi dir="ltr">{children}</bdi>;

function Address({ address }: { address: string | null }) {
  return address ? <Ltr>{address}</Ltr> : <Trans>Inconnue</Trans>;
}

/** One line of a device's details, its labels in one column. */
function Detail({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel minWidth="36">{label}</DataList.ItemLabel>
      <DataList.ItemValue>{children}</DataList.ItemValue>
    </DataList.Item>
  );
}

function DeviceItem({ session, onSignOut }: { session: DeviceSession; onSignOut: () => void }) {
  const nameId = useId();
  return (
    <List.Item
      borderWidth="1px"
      borderRadius="l3"
      borderColor={session.current ? 'brand.solid' : 'border'}
      p="4"
      aria-current={session.current ? 'true' : undefined}
      data-testid="device"
    >
      {/* A plain list's item is a flex row: its one child takes the whole width. */}
      <Stack
        direction={{ base: 'column', sm: 'row' }}
        justify="space-between"
        align={{ sm: 'center' }}
        gap="3"
        flex="1"
        minWidth="0"
      >
        <Stack gap="2" minWidth="0">
          <HStack gap="2" wrap="wrap">
            <DeviceName device={session.device} id={nameId} />
            {session.current && (
              <Badge colorPalette="brand" variant="solid" size="md">
                <Trans>Cet appareil</Trans>
              </Badge>
            )}
          </HStack>
          <DataList.Root orientation="horizontal" size="md" gap="1">
            <Detail label={<Trans>Connecté le</Trans>}>
              <Ltr>{formatDateTime(session.signed_in_at)}</Ltr>
            </Detail>
            <Detail label={<Trans>Dernière activité</Trans>}>
              <Ltr>{formatDateTime(session.last_used_at)}</Ltr>
            </Detail>
            <Detail label={<Trans>Adresse</Trans>}>
              <Address address={session.address} />
            </Detail>
          </DataList.Root>
        </Stack>
        {!session.current && (
          <Button
            size="lg"
            variant="outline"
            colorPalette="red"
            flexShrink={0}
            aria-describedby={nameId}
            onClick={onSignOut}
          >
            <Trans>Déconnecter</Trans>
          </Button>
        )}
      </Stack>
    </List.Item>
  );
}

function SignInItem({ signIn }: { signIn: SignIn }) {
  return (
    <List.Item borderBottomWidth="1px" py="3" data-testid="sign-in">
      <Stack gap="1" flex="1" minWidth="0">
        <HStack gap="2" wrap="wrap" justify="space-between">
          <Text fontWeight="medium">
            <Ltr>{formatDateTime(signIn.at)}</Ltr>
          </Text>
          {signIn.new_device && (
            <Badge colorPalette="orange" variant="subtle" size="md">
              <Trans>Nouvel appareil</Trans>
            </Badge>
          )}
        </HStack>
        <Text color="fg.muted">
          <DeviceName device={signIn.device} /> · <Address address={signIn.address} />
        </Text>
      </Stack>
    </List.Item>
  );
}

/** What stands in for the list when it cannot be shown: why, and Retry. */
function NotShown({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  return (
    <Stack gap="3" align="flex-start" role="status">
      <Text>{children}</Text>
      <Button size="lg" variant="outline" onClick={onRetry}>
        <Trans>Réessayer</Trans>
      </Button>
    </Stack>
  );
}

export default function ConnectedDevices({ version = 0 }: { version?: number }) {
  useDevicesCatalog();
  const { t, i18n } = useLingui();
  const devices = useConnectedDevices(version);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const { state } = devices;

  const confirm = async () => {
    if (!confirming) return;
    setBusy(true);
    const result =
      confirming.kind === 'one' ? await devices.signOutDevice(confirming.session.id) : await devices.signOutOthers();
    setBusy(false);
    setConfirming(null);
    if (result.status === 'success') {
      notify.success(() => (confirming.kind === 'one' ? t`Appareil déconnecté` : t`Autres appareils déconnectés`));
    } else {
      notify.error(apiFailureMessage(i18n, result));
    }
  };

  let content: ReactNode;
  if (state.kind === 'loading') {
    content = <LoadingSpinner minHeight="40" />;
  } else if (state.kind === 'offline') {
    content = (
      <NotShown onRetry={devices.reload}>
        <Trans>La liste des appareils demande une connexion au réseau.</Trans>
      </NotShown>
    );
  } else if (state.kind === 'failed') {
    content = <NotShown onRetry={devices.reload}>{apiFailureMessage(i18n, state.failure)}</NotShown>;
  } else {
    const others = state.sessions.filter((session) => !session.current).length;
    content = (
      <Stack gap="6">
        <List.Root variant="plain" gap="3">
          {state.sessions.map((session) => (
            <DeviceItem key={session.id} session={session} onSignOut={() => setConfirming({ kind: 'one', session })} />
          ))}
        </List.Root>
        {others > 0 && (
          <HStack justify="flex-end">
            <Button size="lg" colorPalette="red" onClick={() => setConfirming({ kind: 'others', count: others })}>
              <Trans>Déconnecter tous les autres</Trans>
            </Button>
          </HStack>
        )}
        <Stack gap="2" as="section" aria-labelledby={`${titleId}-sign-ins`}>
          <Heading as="h3" size="md" id={`${titleId}-sign-ins`}>
            <Trans>Connexions récentes</Trans>
          </Heading>
          {state.signIns.length === 0 ? (
            <Text color="fg.muted">
              <Trans>Aucune connexion récente.</Trans>
            </Text>
          ) : (
            <List.Root variant="plain">
              {state.signIns.map((signIn) => (
                <SignInItem key={`${signIn.at} ${signIn.device} ${signIn.address ?? ''}`} signIn={signIn} />
              ))}
            </List.Root>
          )}
        </Stack>
      </Stack>
    );
  }

  return (
    <Card.Root
      as="section"
      id={CONNECTED_DEVICES_ID}
      aria-labelledby={titleId}
      maxWidth="2xl"
      mx="auto"
      width="full"
      variant="elevated"
    >
      <Card.Header>
        <Heading as="h2" size="lg" id={titleId}>
          <Trans>Appareils connectés</Trans>
        </Heading>
        <Text color="fg.muted">
          <Trans>Les appareils où votre compte est ouvert. Déconnectez ceux que vous ne reconnaissez pas.</Trans>
        </Text>
      </Card.Header>
      <Card.Body>{content}</Card.Body>
      <ConfirmDialog
        open={confirming !== null}
        tone="danger"
        title={
          confirming?.kind === 'others' ? (
            <Trans>Déconnecter tous les autres appareils ?</Trans>
          ) : (
            <Trans>Déconnecter cet appareil ?</Trans>
          )
        }
        confirmLabel={
          confirming?.kind === 'others' ? <Trans>Déconnecter tous les autres</Trans> : <Trans>Déconnecter</Trans>
        }
        cancelLabel={<Trans>Annuler</Trans>}
        loading={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(null)}
      >
        {confirming?.kind === 'one' && (
          <Stack gap="2">
            <Box>
              <DeviceName device={confirming.session.device} />
            </Box>
            <Text>
              <Trans>Il devra se reconnecter. Les saisies non envoyées restent dessus.</Trans>
            </Text>
          </Stack>
        )}
        {confirming?.kind === 'others' && (
          <Text>
            {t`${plural(confirming.count, {
              one: '# autre appareil devra se reconnecter. Ses saisies non envoyées restent dessus.',
              other: '# autres appareils devront se reconnecter. Leurs saisies non envoyées y restent.',
            })}`}
          </Text>
        )}
      </ConfirmDialog>
    </Card.Root>
  );
}
