/**
 * Above every signed-in screen, beside the storage warnings: the entries that will not leave without
 * the mechanic (docs/ARCHITECTURE.md#entries-that-need-the-mechanic). Unsent for more than 24 hours,
 * refused by the server, or waiting for a sign-in: which ones, why, and the action that clears it.
 * Loaded when there is something to show (SyncAlerts); the hand-over file's code when Export is pressed.
 */
import { Alert, Button, HStack, List, Stack, Text } from '@chakra-ui/react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { historyTabHref, paths } from '../../../config/paths';
import { formatDateTime } from '../../../lib/dates';
import { formatKm } from '../../../lib/format';
import { useLocale } from '../../../lib/i18n';
import { outboxErrorText } from '../../../lib/entries/words';
import { logout } from '../../../lib/session';
import { sendNow, type EntrySample, type OutboxAttention } from '../../../lib/entries';
import { useSyncStatus } from '../../../lib/entries/hooks';
import { useHandover } from '../hooks/useHandover';
import { useSyncCatalog } from '../catalog';

/** A button that shows it is busy while its action runs. */
function ActionButton({
  onPress,
  children,
  primary,
}: {
  onPress: () => Promise<void>;
  children: ReactNode;
  primary?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const press = async () => {
    setBusy(true);
    await onPress().finally(() => setBusy(false));
  };
  return (
    <Button
      minHeight="12"
      variant={primary ? 'solid' : 'outline'}
      colorPalette="brand"
      loading={busy}
      onClick={() => void press()}
    >
      {children}
    </Button>
  );
}

function ExportButton() {
  const { exportEntries } = useHandover();
  return (
    <ActionButton onPress={exportEntries}>
      <Trans>Exporter</Trans>
    </ActionButton>
  );
}

/** Each entry named by what the mechanic wrote on it: KODE ID, odometer, date (and the server's reason). */
function EntryList({ sample, withReason }: { sample: EntrySample; withReason?: boolean }) {
  const { t, i18n } = useLingui();
  const locale = useLocale();
  const more = sample.count - sample.entries.length;
  return (
    <List.Root ps="5" mt="1" gap="0.5">
      {sample.entries.map((row) => (
        <List.Item key={row.key} data-key={row.key}>
          <bdi dir="ltr">{row.entry.kode_id}</bdi> · <bdi>{formatKm(row.entry.odometer, locale)}</bdi> ·{' '}
          <bdi dir="ltr">{formatDateTime(row.entry.recorded_at)}</bdi>
          {withReason && row.lastError ? ` — ${outboxErrorText(i18n, row.lastError)}` : ''}
        </List.Item>
      ))}
      {more > 0 && <List.Item>{t`${plural(more, { one: '+ # autre', other: '+ # autres' })}`}</List.Item>}
    </List.Root>
  );
}

interface AttentionAlertProps {
  kind: string;
  status: 'warning' | 'error';
  title: string;
  reason: ReactNode;
  sample: EntrySample;
  withReason?: boolean;
  actions: ReactNode;
}

function AttentionAlert({ kind, status, title, reason, sample, withReason, actions }: AttentionAlertProps) {
  return (
    <Alert.Root status={status} role="alert" data-attention={kind}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>
          <Text>{reason}</Text>
          <EntryList sample={sample} withReason={withReason} />
          <HStack gap="2" wrap="wrap" mt="2">
            {actions}
          </HStack>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

function StaleAlert({ stale }: { stale: OutboxAttention['stale'] }) {
  const { t, i18n } = useLingui();
  const { online } = useSyncStatus();
  const since = formatDateTime(stale.entries[0]?.createdAt ?? '');
  const message = stale.serverError && outboxErrorText(i18n, stale.serverError);
  return (
    <AttentionAlert
      kind="stale"
      status="warning"
      title={t`${plural(stale.count, { one: '# saisie non envoyée depuis plus de 24 h', other: '# saisies non envoyées depuis plus de 24 h' })}`}
      reason={
        message ? (
          <Trans>Le serveur ne les a pas enregistrées : {message}</Trans>
        ) : (
          <Trans>
            Pas de connexion depuis le <bdi dir="ltr">{since}</bdi>.
          </Trans>
        )
      }
      sample={stale}
      actions={
        <>
          {online && (
            <ActionButton primary onPress={sendNow}>
              <Trans>Envoyer maintenant</Trans>
            </ActionButton>
          )}
          <ExportButton />
        </>
      }
    />
  );
}

function RejectedAlert({ rejected }: { rejected: EntrySample }) {
  const { t } = useLingui();
  return (
    <AttentionAlert
      kind="rejected"
      status="error"
      title={t`${plural(rejected.count, { one: '# saisie refusée par le serveur', other: '# saisies refusées par le serveur' })}`}
      reason={<Trans>Corrigez-les ou abandonnez-les dans l’historique.</Trans>}
      sample={rejected}
      withReason
      actions={
        <Button asChild minHeight="12" colorPalette="brand">
          <Link href={historyTabHref}>
            <Trans>Corriger</Trans>
          </Link>
        </Button>
      }
    />
  );
}

function WaitingAlert({ waiting }: { waiting: EntrySample }) {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const signInAgain = async () => {
    // The entries stay on the tablet and leave at the next sign-in (docs/ARCHITECTURE.md#the-offline-model-in-practice).
    await logout();
    navigate(paths.login, { replace: true });
  };
  return (
    <AttentionAlert
      kind="waiting_for_sign_in"
      status="warning"
      title={t`${plural(waiting.count, { one: '# saisie en attente de connexion au compte', other: '# saisies en attente de connexion au compte' })}`}
      reason={<Trans>La session a pris fin : reconnectez-vous pour les envoyer.</Trans>}
      sample={waiting}
      actions={
        <>
          <ActionButton primary onPress={signInAgain}>
            <Trans>Se reconnecter</Trans>
          </ActionButton>
          <ExportButton />
        </>
      }
    />
  );
}

export default function OutboxAlerts({ attention }: { attention: OutboxAttention }) {
  useSyncCatalog();
  const { stale, rejected, waitingForSignIn } = attention;
  return (
    <Stack gap="3" maxWidth="6xl" mx="auto" width="full" mb={{ base: '3', md: '4' }}>
      {stale.count > 0 && <StaleAlert stale={stale} />}
      {rejected.count > 0 && <RejectedAlert rejected={rejected} />}
      {waitingForSignIn.count > 0 && <WaitingAlert waiting={waitingForSignIn} />}
    </Stack>
  );
}
