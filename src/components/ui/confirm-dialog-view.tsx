/**
 * A confirmation as an alert dialog: a title, what is at stake, and two buttons. Escape and the
 * close button mean "cancel"; focus starts on the safe choice.
 */
import { Button, Dialog } from '@chakra-ui/react';
import { useRef, type ReactNode } from 'react';
import { DialogBody, DialogCloseButton, DialogFrame } from './dialog-frame';

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
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <DialogFrame
      role="alertdialog"
      open={props.open}
      onClose={props.onCancel}
      initialFocusEl={() => cancelRef.current}
      // An alert dialog waits for an answer: a stray tap outside (or a menu handing focus back) is not one.
      closeOnInteractOutside={false}
    >
      <Dialog.Content>
        <Dialog.Header>
          <Dialog.Title>{props.title}</Dialog.Title>
        </Dialog.Header>
        <DialogBody>{props.children}</DialogBody>
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
        <DialogCloseButton />
      </Dialog.Content>
    </DialogFrame>
  );
}
