/**
 * A confirmation as an alert dialog (confirm-dialog-view.tsx), loaded the first time one opens.
 */
import type { ConfirmDialogProps } from './confirm-dialog-view';
import { lazyDialog } from './lazy-dialog';

export type { ConfirmDialogProps } from './confirm-dialog-view';

export const ConfirmDialog = lazyDialog<ConfirmDialogProps>(
  () => import('./confirm-dialog-view').then((module) => module.ConfirmDialog),
  { isOpen: (props) => props.open, close: (props) => props.onCancel() },
);
