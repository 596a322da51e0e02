/**
 * Export and import of the hand-over file (docs/ARCHITECTURE.md#the-hand-over-file), with what the
 * mechanic is told. The file's code (and the contract's schemas) loads on first use: the banner that
 * offers Export is in the first load.
 */
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { notify } from '../../../components/ui/toaster';
import type { HandoverRefusal } from '../../../lib/sync/handover';

const loadHandover = () => import('../../../lib/sync/handover');

export function useHandover() {
  const { t } = useLingui();

  const refusals: Record<HandoverRefusal, string> = {
    'not-json': t`Ce fichier n’est pas lisible : il est endommagé ou ce n’est pas un fichier de transfert.`,
    'other-format': t`Ce fichier n’est pas un fichier de transfert du portail KODE Garage (ou sa version n’est pas prise en charge).`,
    damaged: t`Ce fichier de transfert est endommagé : au moins une saisie est invalide.`,
    'other-partner': t`Ce fichier appartient à un autre garage : connectez-vous avec le compte qui l’a exporté.`,
    'signed-out': t`Connectez-vous pour importer ce fichier.`,
  };

  async function exportEntries(): Promise<void> {
    const count = await (await loadHandover()).exportHandover();
    if (count === 0) notify.info(t`Aucune saisie à exporter.`);
    else notify.success(t`${plural(count, { one: '# saisie exportée', other: '# saisies exportées' })}`);
  }

  async function importFile(file: File): Promise<void> {
    const outcome = await (await loadHandover()).importHandover(await file.text());
    if (outcome.kind === 'refused') {
      notify.error(t`Import refusé, rien n’a été ajouté`, refusals[outcome.reason]);
      return;
    }
    const { added, present } = outcome.result;
    const addedText = t`${plural(added, { one: '# saisie ajoutée', other: '# saisies ajoutées' })}`;
    const presentText = t`${plural(present, { one: '# déjà présente', other: '# déjà présentes' })}`;
    notify.success(t`Fichier importé`, t`${addedText}, ${presentText}.`);
  }

  return { exportEntries, importFile };
}
