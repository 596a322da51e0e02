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

/**
 * The bottom strip a dialog leaves free: toasts stack as cards in the bottom start corner
 * (toaster-view.tsx), one two-line toast high with the older ones peeking above it, and a toast must
 * never cover a dialog's text or buttons. A dialog taller than what is left scrolls its body, its
 * header and footer staying in view.
 */
export const TOAST_STRIP = '8rem';

export function DialogFrame({ open, onClose, positioner, children, ...root }: DialogFrameProps) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      placement="center"
      size="md"
      scrollBehavior="inside"
      {...root}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner
          pt="4"
          pb={TOAST_STRIP}
          css={{ '& > [data-part="content"]': { maxHeight: '100%' } }}
          {...positioner}
        >
          {children}
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/**
 * The corner button that closes a dialog, named "Fermer" in the active language: a 44-pixel target, and
 * `lg` a 48-pixel one, for dialogs used with one hand on a tablet (the scanner, the map).
 */
export function DialogCloseButton({ size = 'sm' }: { size?: 'sm' | 'lg' }) {
  const { t } = useLingui();
  return (
    <Dialog.CloseTrigger asChild top="2" insetEnd="2">
      <CloseButton size={size} aria-label={t`Fermer`} boxSize={size === 'lg' ? '12' : '11'} />
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
