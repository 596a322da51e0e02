/**
 * The kinds of refusal an entry can meet once it is sent (docs/ARCHITECTURE.md#entries-that-need-the-mechanic),
 * in one table: for each reason the server refuses a well-formed entry for (ENTRY_REFUSAL_CODES in the
 * contract), the words the mechanic reads and the state the entry is parked in until the mechanic acts.
 * A new kind of refusal is its code in the contract, a line here and its words in the catalogs.
 *
 * Each message's id is its code, as for every ErrorCode (src/lib/error-messages.ts): the server answers
 * with the same catalog entries. Pure and small: the screens' first load may import it.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { EntryRefusalCode } from '../../../contract';

/**
 * Refused: the mechanic corrects the entry (sent again under a new key) or discards it.
 * In conflict: the server holds the entry's key with other values; the mechanic records the entry as a
 * correction of that stored repair, or discards it.
 */
export type ParkedState = 'refused' | 'in_conflict';

export interface RefusalKind {
  words: MessageDescriptor;
  parksAs: ParkedState;
}

export const REFUSALS: Record<EntryRefusalCode, RefusalKind> = {
  repair_type_not_found: {
    parksAs: 'refused',
    words: msg({ id: 'repair_type_not_found', message: "Ce type de panne n'existe pas" }),
  },
  idempotency_conflict: {
    parksAs: 'in_conflict',
    words: msg({
      id: 'idempotency_conflict',
      message: 'Cette saisie a déjà été enregistrée avec un contenu différent',
    }),
  },
  repair_not_found: {
    parksAs: 'refused',
    words: msg({ id: 'repair_not_found', message: 'Aucune de vos saisies ne correspond à celle à corriger' }),
  },
  already_corrected: {
    parksAs: 'refused',
    words: msg({ id: 'already_corrected', message: 'Cette saisie a déjà été corrigée' }),
  },
  correction_window_closed: {
    parksAs: 'refused',
    words: msg({
      id: 'correction_window_closed',
      message: 'Cette saisie ne peut plus être corrigée (7 jours après son enregistrement)',
    }),
  },
  correction_vehicle_changed: {
    parksAs: 'refused',
    words: msg({
      id: 'correction_vehicle_changed',
      message: 'Seul le motif « Mauvais véhicule » permet de changer le KODE ID',
    }),
  },
  correction_recorded_at_changed: {
    parksAs: 'refused',
    words: msg({
      id: 'correction_recorded_at_changed',
      message: 'Une correction garde la date de saisie de la saisie qu’elle corrige',
    }),
  },
};

/** The words of each refusal, as the table of every ErrorCode's words takes them. */
export const REFUSAL_WORDS = Object.fromEntries(
  Object.entries(REFUSALS).map(([code, kind]) => [code, kind.words]),
) as Record<EntryRefusalCode, MessageDescriptor>;

/** The state a refusal parks an entry in; a reason the table does not know (a field's check) parks it as refused. */
export function parksAs(reason: string | undefined): ParkedState {
  return reason !== undefined && Object.hasOwn(REFUSALS, reason)
    ? REFUSALS[reason as EntryRefusalCode].parksAs
    : 'refused';
}
