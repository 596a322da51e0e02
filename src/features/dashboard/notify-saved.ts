/**
 * The toast once an entry is saved, after Insert or after correcting a refused entry: stored on the
 * server, or kept on the tablet until the connection returns (docs/PRODUCT.md#messages-and-toasts).
 */
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { notify } from '../../components/ui/toaster';
import { OPERATION_SUCCEEDED } from '../../lib/error-messages';
import { PHOTO_LEFT_OUT } from './photo/messages';

const STORED = msg`La saisie a été enregistrée.`;
const QUEUED = msg`Saisie enregistrée sur la tablette, elle sera envoyée dès le retour de la connexion.`;

/** The tablet had no room for the photo: the reading was kept without it (docs/PRODUCT.md#odometer-photo). */
export function notifyPhotoLeftOut(i18n: I18n): void {
  notify.warning(() => i18n._(PHOTO_LEFT_OUT));
}

export function notifyEntrySaved(i18n: I18n, kind: 'stored' | 'queued'): void {
  notify.success(
    () => i18n._(OPERATION_SUCCEEDED),
    () => i18n._(kind === 'stored' ? STORED : QUEUED),
  );
}
