/**
 * The badge each status of an entry shows in the history (docs/PRODUCT.md#history-tab): its words and
 * colours. Its words are in the History's catalog (lingui.config.ts), loaded with the History.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { EntryStatusLabel } from './entry-state';

/** How a status's badge looks: its words, and a colour palette with a fill. */
export interface StatusLook {
  label: MessageDescriptor;
  palette: 'green' | 'orange' | 'blue' | 'red' | 'purple';
  variant: 'subtle' | 'solid';
}

export const STATUS_LOOKS: Record<EntryStatusLabel, StatusLook> = {
  synced: { label: msg`Envoyée`, palette: 'green', variant: 'subtle' },
  pending: { label: msg`En attente`, palette: 'orange', variant: 'subtle' },
  sending: { label: msg`Envoi…`, palette: 'blue', variant: 'subtle' },
  rejected: { label: msg`Refusée`, palette: 'red', variant: 'solid' },
  waiting_for_sign_in: { label: msg`En attente de connexion`, palette: 'purple', variant: 'subtle' },
};
