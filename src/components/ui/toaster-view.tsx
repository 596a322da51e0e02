/**
 * The toasts' store and view, loaded with the first toast (toaster.tsx is what the app calls).
 * Toasts: at most 3 at once, stacked as cards, hidden after 5000 ms, bottom-left. In Arabic they stay on the physical
 * left too (Zag resolves "bottom-start" to that corner in right-to-left pages): the side away from
 * Insert, which sits on the physical right in every language. A toast never stops a tap: its body
 * lets pointer events through to the form beneath (the consent checkbox sits right there on a
 * landscape tablet), on its way out too; only its close and action buttons take them.
 */
import {
  createToaster,
  Portal,
  Spinner,
  Stack,
  Toast,
  Toaster as ChakraToaster,
  type SystemStyleObject,
} from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';
import { useEffect, type ReactNode } from 'react';
import { drawn, type LiveWords } from './live-text';
import { TOAST_BESIDE_SIZES, toastRoomBeside, toastsBesideFrom } from './dialog-frame';

export const TOAST_DURATION_MS = 5000;
export const TOAST_MAX = 3;

export const toaster = createToaster({
  placement: 'bottom-start',
  // Stacked as cards, the newest in front: the corner they take stays one toast high, which dialogs
  // leave free (dialog-frame.tsx) and which covers less of the form beneath.
  overlap: true,
  max: TOAST_MAX,
  duration: TOAST_DURATION_MS,
  pauseOnPageIdle: true,
});

/**
 * A toast never stops a tap (see above); and while a dialog that leaves room beside it is open (on a
 * landscape tablet, dialog-frame.tsx), the toasts narrow to that room, so the dialog can use the
 * whole height without a toast over its text or buttons.
 */
const TOAST_CSS: SystemStyleObject = {
  '&, & [data-ghost]': { pointerEvents: 'none !important' },
  ...Object.fromEntries(
    TOAST_BESIDE_SIZES.map((size) => [
      `@media (min-width: ${toastsBesideFrom(size)}rem)`,
      { [`html:has([data-toast-beside="${size}"]) &`]: { width: toastRoomBeside(size) } },
    ]),
  ),
};

/** The action's label, drawn in the active language (toaster.tsx puts it in the toast's meta). */
function actionLabel(meta: Record<string, unknown> | undefined): ReactNode {
  const label = meta?.actionLabel;
  return typeof label === 'string' || typeof label === 'function' ? drawn(label as LiveWords) : undefined;
}

/** Mounted by ToastHost (toaster.tsx) once a toast is asked for; `onMount` says it listens to the store. */
export function Toaster({ onMount }: { onMount?: () => () => void }) {
  useEffect(() => onMount?.(), [onMount]);
  const { t } = useLingui();
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          // Zag sets pointer-events inline on the toast, hence !important; and on the "ghost" it leaves
          // under a leaving toast (to keep the group hovered), taller than the toast: it would take taps.
          <Toast.Root width={{ md: 'sm' }} css={TOAST_CSS}>
            {toast.type === 'loading' ? <Spinner size="sm" color="blue.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.action && (
              <Toast.ActionTrigger pointerEvents="auto">
                {actionLabel(toast.meta) ?? toast.action.label}
              </Toast.ActionTrigger>
            )}
            {toast.closable !== false && (
              // A 44-pixel target in the toast's corner, as every control.
              <Toast.CloseTrigger pointerEvents="auto" boxSize="11" top="0" insetEnd="0" aria-label={t`Fermer`} />
            )}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
