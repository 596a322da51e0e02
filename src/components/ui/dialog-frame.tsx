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
  type DialogBodyProps,
  type DialogPositionerProps,
  type DialogRootProps,
} from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { SCROLL_EDGES_CSS, useScrollEdges } from './scroll-edges';

export interface DialogFrameProps extends Omit<DialogRootProps, 'open' | 'onOpenChange' | 'children'> {
  open: boolean;
  onClose: () => void;
  positioner?: DialogPositionerProps;
  children: ReactNode;
}

/**
 * The bottom strip a dialog leaves free where the toasts (bottom left, toaster-view.tsx) cannot stand
 * beside it: they stack as cards, one two-line toast high with the older ones peeking above it, and a
 * toast must never cover a dialog's text or buttons. A dialog taller than what is left scrolls its
 * body (DialogBody: its edge fades while more lies below), its header and footer staying in view.
 */
export const TOAST_STRIP = '8rem';

/** Each dialog size's width (Chakra's dialog recipe), in rem. */
const DIALOG_WIDTH_REM = { xs: 24, sm: 28, md: 32, lg: 42, xl: 56 } as const;
type SizeBesideToasts = keyof typeof DIALOG_WIDTH_REM;

/** The narrowest a toast may be made to stand beside a dialog, and its margins on both sides, in rem. */
export const TOAST_BESIDE_MIN_REM = 14;
const TOAST_MARGINS_REM = 2;

/**
 * From which viewport width (rem) a dialog of this size leaves room beside it, on the left, for a toast
 * at least TOAST_BESIDE_MIN_REM wide: then the dialog uses the whole height and the toasts narrow to
 * that room (toaster-view.tsx). A 32rem dialog does from 1024 px on, a landscape tablet.
 */
export function toastsBesideFrom(size: SizeBesideToasts): number {
  return DIALOG_WIDTH_REM[size] + 2 * (TOAST_BESIDE_MIN_REM + TOAST_MARGINS_REM);
}

/** The room beside a dialog of this size, as CSS: the toasts' width while it is open. */
export function toastRoomBeside(size: SizeBesideToasts): string {
  return `min(24rem, calc(50vw - ${DIALOG_WIDTH_REM[size] / 2 + TOAST_MARGINS_REM}rem))`;
}

export const TOAST_BESIDE_SIZES = Object.keys(DIALOG_WIDTH_REM) as SizeBesideToasts[];

function sizeBesideToasts(size: DialogRootProps['size']): SizeBesideToasts | undefined {
  const fixed = size ?? 'md';
  return typeof fixed === 'string' && fixed in DIALOG_WIDTH_REM ? (fixed as SizeBesideToasts) : undefined;
}

export function DialogFrame({ open, onClose, positioner, children, ...root }: DialogFrameProps) {
  const beside = sizeBesideToasts(root.size);
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
          data-toast-beside={beside}
          css={{
            '& > [data-part="content"]': { maxHeight: '100%' },
            ...(beside && { [`@media (min-width: ${toastsBesideFrom(beside)}rem)`]: { pb: '4' } }),
          }}
          {...positioner}
        >
          {children}
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** A dialog's body: it scrolls when the dialog is taller than the screen, and shows so. */
export function DialogBody(props: DialogBodyProps) {
  const { ref, edges } = useScrollEdges<HTMLDivElement>();
  return <Dialog.Body ref={ref} {...edges} {...props} css={{ ...SCROLL_EDGES_CSS, ...props.css }} />;
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
