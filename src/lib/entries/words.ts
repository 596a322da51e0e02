/**
 * The entries module's words (docs/ARCHITECTURE.md#entries-that-need-the-mechanic): the badge each
 * status shows in the history (status-looks.ts, whose words load with the History's catalog), and what
 * the screens say of an entry's last failure. Light: the history's first rows are drawn with it.
 *
 * A failure reads in the server's words when this tablet heard them; otherwise its reason code is
 * worded in the mechanic's language: an entry imported from a hand-over file carries codes only, never
 * another tablet's or browser's words (docs/ARCHITECTURE.md#the-hand-over-file).
 */
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { isErrorCode } from '../../../contract';
import type { OutboxError } from '../db';
import { errorMessage } from '../error-messages';

export { entryStatusLabel, isConflict, type EntryStatusLabel } from './entry-state';
export type { ComparedField, EntryDifference } from './entry-conflict';
export { STATUS_LOOKS, type StatusLook } from './status-looks';

export function outboxErrorText(i18n: I18n, error: OutboxError): string {
  // Code 0: nothing came back; the browser's own words ("Failed to fetch") mean nothing to a mechanic.
  if (error.code === 0) return i18n._(msg`Serveur injoignable : vérifiez la connexion et réessayez`);
  const message = error.message.trim();
  if (message) return message;
  if (isErrorCode(error.reason)) return errorMessage(i18n, error.reason);
  const code = error.code;
  return i18n._(msg`Erreur du serveur (code ${code})`);
}
