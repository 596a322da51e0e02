/**
 * A confirmation as an alert dialog: a title, what is at stake, and two buttons. Escape and the
 * close button mean "cancel"; focus starts on the safe choice.
 */
import { Button, CloseButton, Dialog, Portal } from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';
import { useRef, type ReactNode } from 'react';

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  children: ReactNode;
  confirmLabel: ReactNode;
  cancelLabel: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  /** 'danger' paints the confirm button red (discarding, signing out with work pending). */
  tone?: 'default' | 'danger';
  loading?: boolean;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useLingui();
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog.Root
      role="alertdialog"
      open={props.open}
      onOpenChange={(details) => {
        if (!details.open) props.onCancel();
      }}
      initialFocusEl={() => cancelRef.current}
      // An alert dialog waits for an answer: a stray tap outside (or a menu handing focus back) is not one.
      closeOnInteractOutside={false}
      placement="center"
      size="md"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{props.title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{props.children}</Dialog.Body>
            <Dialog.Footer flexWrap="wrap">
              <Button ref={cancelRef} variant="outline" size="lg" onClick={props.onCancel}>
                {props.cancelLabel}
              </Button>
              <Button
                size="lg"
                colorPalette={props.tone === 'danger' ? 'red' : 'brand'}
                loading={props.loading}
                onClick={props.onConfirm}
              >
                {props.confirmLabel}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t`Fermer`} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
