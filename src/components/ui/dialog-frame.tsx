/**
 * What every dialog of the portal shares: opened and closed by its owner (Escape, the backdrop and
 * the close button all mean "close"), centred over a backdrop, rendered in a portal, with a labelled
 * close button. The dialog's own content (Dialog.Content and what it holds) is its children.
 */
import {
  Button,
  CloseButton,
  Dialog,
  Portal,
  type DialogPositionerProps,
  type DialogRootProps,
} from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';

export interface DialogFrameProps extends Omit<DialogRootProps, 'open' | 'onOpenChange' | 'children'> {
  open: boolean;
  onClose: () => void;
  positioner?: DialogPositionerProps;
  children: ReactNode;
}

export function DialogFrame({ open, onClose, positioner, children, ...root }: DialogFrameProps) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      placement="center"
      size="md"
      {...root}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner {...positioner}>{children}</Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/**
 * The corner button that closes a dialog, named "Fermer" in the active language. `lg` is a 48-pixel
 * target, for dialogs used with one hand on a tablet (the scanner, the map).
 */
export function DialogCloseButton({ size = 'sm' }: { size?: 'sm' | 'lg' }) {
  const { t } = useLingui();
  return (
    <Dialog.CloseTrigger asChild>
      <CloseButton size={size} aria-label={t`Fermer`} {...(size === 'lg' ? { boxSize: '12' } : {})} />
    </Dialog.CloseTrigger>
  );
}

/** The footer of a dialog holding a form: Cancel (gives the dialog up) and its submit button, then the close button. */
export function FormDialogFooter(props: { submitLabel: ReactNode; submitting: boolean; onCancel: () => void }) {
  return (
    <>
      <Dialog.Footer flexWrap="wrap">
        <Button type="button" variant="outline" size="lg" onClick={props.onCancel}>
          <Trans>Annuler</Trans>
        </Button>
        <Button type="submit" size="lg" colorPalette="brand" loading={props.submitting}>
          {props.submitLabel}
        </Button>
      </Dialog.Footer>
      <DialogCloseButton />
    </>
  );
}
