/**
 * Export and import of the hand-over file (docs/ARCHITECTURE.md#the-hand-over-file), with what the
 * mechanic is told. The file's code (the contract's schemas and the seal) loads on first use: the
 * banner that offers Export is in the first load.
 */
import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import type { RepairType } from '../../../../contract';
import { notify } from '../../../components/ui/toaster';
import type { HandoverRefusal, HandOverConflict } from '../../../lib/entries';

const loadHandover = () => import('../../../lib/entries').then((sync) => sync.loadHandover());

/** A file's entries this tablet holds under the same keys with other values: not imported, each named. */
export interface ImportedConflicts {
  conflicts: HandOverConflict[];
  /** The repair types the differences may name. */
  repairTypes: RepairType[];
}

export function useHandover() {
  const { t } = useLingui();

  // Worded when drawn, like the toasts that show them (components/ui/toaster.tsx).
  const refusals: Record<HandoverRefusal, () => string> = {
    'not-json': () => t`Ce fichier n’est pas lisible : il est endommagé ou ce n’est pas un fichier de transfert.`,
    'other-format': () =>
      t`Ce fichier n’est pas un fichier de transfert du portail KODE Garage (ou sa version n’est pas prise en charge).`,
    unsealed: () =>
      t`Ce fichier a été exporté par une version précédente du portail, sans sceau d’intégrité : exportez-le à nouveau depuis la tablette d’origine.`,
    'other-partner': () => t`Ce fichier appartient à un autre garage : connectez-vous avec le compte qui l’a exporté.`,
    tampered: () => t`Ce fichier a été modifié après son export : il ne peut pas être importé.`,
    'other-key': () =>
      t`Ce fichier a été scellé avec une autre clé du garage : le mot de passe a été changé entre son export et maintenant. Connectez les deux tablettes avec le nouveau mot de passe, puis exportez-le de nouveau depuis la tablette d’origine.`,
    damaged: () => t`Ce fichier de transfert est endommagé : au moins une saisie est invalide.`,
    'signed-out': () => t`Connectez-vous pour importer ce fichier.`,
    'no-key': () =>
      t`Cette tablette doit d’abord se connecter une fois au serveur avec le réseau : elle reçoit alors la clé qui scelle les fichiers de transfert.`,
    unsupported: () =>
      t`Ce navigateur ne peut pas sceller ni vérifier les fichiers de transfert : ouvrez le portail à son adresse https.`,
  };

  async function exportEntries(): Promise<void> {
    const outcome = await (await loadHandover()).exportHandover();
    if (outcome.kind === 'refused') {
      notify.error(() => t`Export impossible`, refusals[outcome.reason]);
      return;
    }
    const { count, photos } = outcome;
    if (count === 0 && photos === 0) notify.info(() => t`Aucune saisie à exporter.`);
    else if (photos === 0) {
      notify.success(() => t`${plural(count, { one: '# saisie exportée', other: '# saisies exportées' })}`);
    } else {
      // Photos whose entries the server holds already travel too (docs/ARCHITECTURE.md#the-hand-over-file).
      notify.success(
        () => t`Fichier exporté`,
        () => {
          const entriesText = t`${plural(count, { one: '# saisie', other: '# saisies' })}`;
          const photosText = t`${plural(photos, {
            one: '# photo d’une saisie déjà envoyée',
            other: '# photos de saisies déjà envoyées',
          })}`;
          return t`${entriesText}, ${photosText}.`;
        },
      );
    }
  }

  /** Imports the file and says how it went; resolves to the entries that differ from this tablet's, if any. */
  async function importFile(file: File): Promise<ImportedConflicts | null> {
    const outcome = await (await loadHandover()).importHandover(await file.text());
    if (outcome.kind === 'refused') {
      notify.error(() => t`Import refusé, rien n’a été ajouté`, refusals[outcome.reason]);
      return null;
    }
    const { added, present, conflicts, photosAdded } = outcome.result;
    // Worded when drawn; the placeholders keep their names, so the catalogs' messages stay the same.
    const counts = () => ({
      addedText: t`${plural(added, { one: '# saisie ajoutée', other: '# saisies ajoutées' })}`,
      presentText: t`${plural(present, { one: '# déjà présente', other: '# déjà présentes' })}`,
    });
    if (conflicts.length === 0) {
      notify.success(
        () => t`Fichier importé`,
        () => {
          const { addedText, presentText } = counts();
          if (photosAdded === 0) return t`${addedText}, ${presentText}.`;
          const photosText = t`${plural(photosAdded, {
            one: '# photo de saisie déjà envoyée ajoutée',
            other: '# photos de saisies déjà envoyées ajoutées',
          })}`;
          return t`${addedText}, ${presentText}, ${photosText}.`;
        },
      );
      return null;
    }
    const differing = conflicts.length;
    notify.warning(
      () => t`Fichier importé, avec des différences`,
      () => {
        const { addedText, presentText } = counts();
        const conflictText = t`${plural(differing, {
          one: '# différente de celle de cette tablette',
          other: '# différentes de celles de cette tablette',
        })}`;
        return t`${addedText}, ${presentText}, ${conflictText}.`;
      },
    );
    return { conflicts, repairTypes: outcome.repairTypes };
  }

  return { exportEntries, importFile };
}
