/**
 * The certificates a garage issued (docs/PRODUCT.md#mileage-certificate): each with its id, as printed
 * under its QR code, what the public page says of it, and what the garage can do with it: open or share
 * its page, and revoke it, after which the page tells whoever opens it that the garage withdrew it.
 */
import { Button, HStack, List, Stack, Text } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import type { CertificateSummary } from '../../../../contract';
import { ShareLinkButton } from '../../../components/ShareLinkButton';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { StaticBadge } from '../../../components/ui/static-badge';
import { notify } from '../../../components/ui/toaster';
import { apiFailureMessage } from '../../../lib/error-messages';
import { formatDateTime } from '../../../lib/dates';
import { revokeCertificate } from '../api/certificates';
import type { CertificateList as ListOf } from './useCertificates';

/** The page's address, to open, share or print: the summary carries its path on this origin. */
export function certificateAddress(summary: Pick<CertificateSummary, 'url'>): string {
  return new URL(summary.url, window.location.origin).href;
}

export function CertificateStatusBadge({ summary }: { summary: CertificateSummary }) {
  if (summary.status === 'revoked') {
    return (
      <StaticBadge palette="red" variant="subtle">
        <Trans>
          Révoqué le <bdi>{formatDateTime(summary.revoked_at ?? summary.valid_until)}</bdi>
        </Trans>
      </StaticBadge>
    );
  }
  if (summary.status === 'expired') {
    return (
      <StaticBadge palette="gray" variant="subtle">
        <Trans>
          Expiré le <bdi>{formatDateTime(summary.valid_until)}</bdi>
        </Trans>
      </StaticBadge>
    );
  }
  return (
    <StaticBadge palette="green" variant="subtle">
      <Trans>
        Valide jusqu’au <bdi>{formatDateTime(summary.valid_until)}</bdi>
      </Trans>
    </StaticBadge>
  );
}

function CertificateLine(props: {
  summary: CertificateSummary;
  showVehicle: boolean;
  onRevoke: (summary: CertificateSummary) => void;
}) {
  const { summary } = props;
  const { t } = useLingui();
  const address = certificateAddress(summary);
  const count = summary.readings_count;
  return (
    <List.Item as="li" display="block" py="2" borderBottomWidth="1px" data-certificate={summary.id}>
      <HStack wrap="wrap" columnGap="3" rowGap="1">
        <Text as="span" fontFamily="mono" fontWeight="semibold" dir="ltr">
          {summary.id}
        </Text>
        <CertificateStatusBadge summary={summary} />
      </HStack>
      <Text fontSize="sm" color="fg.muted">
        {props.showVehicle && (
          <>
            <bdi>{summary.kode_id}</bdi>
            {' · '}
          </>
        )}
        <Trans>
          Émis le <bdi>{formatDateTime(summary.issued_at)}</bdi> · {count} relevés
        </Trans>
      </Text>
      <HStack wrap="wrap" gap="2" mt="1">
        <Button asChild variant="outline" size="sm" minHeight="11">
          <a href={address} target="_blank" rel="noopener">
            <Trans>Ouvrir</Trans>
          </a>
        </Button>
        <ShareLinkButton url={address} title={t`Certificat kilométrique ${summary.id}`} size="sm" />
        {summary.status === 'valid' && (
          <Button variant="ghost" colorPalette="red" size="sm" minHeight="11" onClick={() => props.onRevoke(summary)}>
            <Trans>Révoquer</Trans>
          </Button>
        )}
      </HStack>
    </List.Item>
  );
}

/**
 * The list as a screen shows it while it is read: loading, unreadable (offline, or why) with a retry,
 * empty, or its lines (`children`).
 */
export function CertificateListBody(props: {
  list: ListOf;
  offlineText: ReactNode;
  emptyText: ReactNode;
  children: (items: CertificateSummary[], mayHaveMore: boolean) => ReactNode;
}) {
  const { state } = props.list;
  if (state.status === 'loading') {
    return (
      <Text color="fg.muted" fontSize="sm" role="status">
        <Trans>Chargement…</Trans>
      </Text>
    );
  }
  if (state.status === 'failed') {
    return (
      <Stack gap="2" align="start">
        <Text color="fg.muted" fontSize="sm">
          {state.offline ? props.offlineText : state.message}
        </Text>
        <Button variant="outline" size="sm" minHeight="11" onClick={props.list.reload}>
          <Trans>Réessayer</Trans>
        </Button>
      </Stack>
    );
  }
  if (state.items.length === 0) {
    return (
      <Text color="fg.muted" fontSize="sm">
        {props.emptyText}
      </Text>
    );
  }
  return props.children(state.items, state.mayHaveMore);
}

/** The list, and the confirmation a revocation asks for. `onRevoked` puts the revoked certificate in its place. */
export function CertificateList(props: {
  items: readonly CertificateSummary[];
  showVehicle: boolean;
  onRevoked: (summary: CertificateSummary) => void;
  label: string;
}) {
  const { i18n, t } = useLingui();
  const [revoking, setRevoking] = useState<CertificateSummary | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirmRevoke() {
    if (!revoking) return;
    setBusy(true);
    const result = await revokeCertificate(revoking.id);
    setBusy(false);
    if (result.status !== 'success') {
      notify.error(() => apiFailureMessage(i18n, result));
      return;
    }
    setRevoking(null);
    props.onRevoked(result.data);
    notify.success(() => t`Certificat révoqué : sa page le dit désormais.`);
  }

  return (
    <Stack gap="0">
      <List.Root variant="plain" gap="0" aria-label={props.label}>
        {props.items.map((summary) => (
          <CertificateLine key={summary.id} summary={summary} showVehicle={props.showVehicle} onRevoke={setRevoking} />
        ))}
      </List.Root>
      <ConfirmDialog
        open={revoking !== null}
        title={<Trans>Révoquer ce certificat ?</Trans>}
        confirmLabel={<Trans>Révoquer</Trans>}
        cancelLabel={<Trans>Annuler</Trans>}
        tone="danger"
        loading={busy}
        onConfirm={() => void confirmRevoke()}
        onCancel={() => setRevoking(null)}
      >
        <Text>
          <Trans>
            Quiconque ouvre le certificat <bdi>{revoking?.id}</bdi> lira qu’il a été révoqué par votre garage. Cela ne
            peut pas être annulé.
          </Trans>
        </Text>
      </ConfirmDialog>
    </Stack>
  );
}
