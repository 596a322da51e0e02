/** What each storage risk means for the mechanic, and what to do (docs/ARCHITECTURE.md#storage-health). */
import { Alert } from '@chakra-ui/react';
import { Trans } from '@lingui/react/macro';
import { formatBytes } from '../../../lib/format';
import type { StorageHealth, StorageRisk } from '../../../lib/storage-health';
import { useLocale } from '../../../lib/i18n';

function StorageRiskTitle({ risk }: { risk: StorageRisk }) {
  if (risk === 'evicted-when-unused') return <Trans>Installez le portail avant de saisir hors ligne</Trans>;
  if (risk === 'almost-full') return <Trans>Stockage de la tablette presque plein</Trans>;
  return <Trans>Stockage non protégé</Trans>;
}

function StorageRiskText({ risk, health }: { risk: StorageRisk; health: StorageHealth }) {
  const locale = useLocale();
  if (risk === 'evicted-when-unused') {
    return (
      <Trans>
        Ce navigateur efface les données du portail après 7 jours sans visite, saisies en attente comprises, tant qu’il
        n’est pas installé. Dans Safari : bouton Partager, puis « Sur l’écran d’accueil ».
      </Trans>
    );
  }
  if (risk === 'almost-full' && health.usage) {
    const percent = Math.round(health.usage.ratio * 100);
    const used = formatBytes(health.usage.used, locale);
    const quota = formatBytes(health.usage.quota, locale);
    return (
      <Trans>
        {percent} % utilisés ({used} sur {quota}). Envoyez les saisies en attente et libérez de la place sur la tablette
        : une saisie qui ne peut plus être enregistrée serait perdue.
      </Trans>
    );
  }
  return (
    <Trans>
      Le navigateur peut effacer les saisies en attente s’il manque de place. Installez le portail ou demandez la
      protection du stockage.
    </Trans>
  );
}

/** One risk as a warning: what it is, and what to do. `announce` makes it an alert read out at once. */
export function StorageRiskAlert({
  risk,
  health,
  announce = false,
}: {
  risk: StorageRisk;
  health: StorageHealth;
  announce?: boolean;
}) {
  return (
    <Alert.Root status="warning" role={announce ? 'alert' : undefined}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          <StorageRiskTitle risk={risk} />
        </Alert.Title>
        <Alert.Description>
          <StorageRiskText risk={risk} health={health} />
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
