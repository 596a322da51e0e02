/**
 * The words of each kind of refusal an entry can meet once it is sent
 * (docs/ARCHITECTURE.md#entries-that-need-the-mechanic): for each reason the server refuses a
 * well-formed entry for (ENTRY_REFUSAL_CODES in the contract), what the mechanic reads. Where each one
 * parks the entry is parking.ts's (no words there: the sender imports it, in the service worker too).
 * A new kind of refusal is its code in the contract, a line here and in parking.ts, and its words in
 * the catalogs.
 *
 * Each message's id is its code, as for every ErrorCode (src/lib/error-messages.ts): the server answers
 * with the same catalog entries.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { EntryRefusalCode } from '../../../contract';

export const REFUSAL_WORDS: Record<EntryRefusalCode, MessageDescriptor> = {
  repair_type_not_found: msg({ id: 'repair_type_not_found', message: "Ce type de panne n'existe pas" }),
  idempotency_conflict: msg({
    id: 'idempotency_conflict',
    message: 'Cette saisie a déjà été enregistrée avec un contenu différent',
  }),
  repair_not_found: msg({ id: 'repair_not_found', message: 'Aucune de vos saisies ne correspond à celle à corriger' }),
  already_corrected: msg({ id: 'already_corrected', message: 'Cette saisie a déjà été corrigée' }),
  correction_window_closed: msg({
    id: 'correction_window_closed',
    message: 'Cette saisie ne peut plus être corrigée (7 jours après son enregistrement)',
  }),
  correction_vehicle_changed: msg({
    id: 'correction_vehicle_changed',
    message: 'Seul le motif « Mauvais véhicule » permet de changer le KODE ID',
  }),
  correction_recorded_at_changed: msg({
    id: 'correction_recorded_at_changed',
    message: 'Une correction garde la date de saisie de la saisie qu’elle corrige',
  }),
  vehicle_retired: msg({
    id: 'vehicle_retired',
    message: 'Ce véhicule est retiré de la circulation : il ne reçoit plus de saisies',
  }),
};
