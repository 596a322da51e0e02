/**
 * Toasts as docs/PRODUCT.md#business-constants says: at most 3 at once, hidden after 5000 ms, bottom-left
 * (bottom-start, so bottom-right in Arabic where the page is mirrored).
 */
import { createToaster, Portal, Spinner, Stack, Toast, Toaster as ChakraToaster } from '@chakra-ui/react';
import { useLingui } from '@lingui/react/macro';

export const TOAST_DURATION_MS = 5000;
export const TOAST_MAX = 3;

export const toaster = createToaster({
  placement: 'bottom-start',
  max: TOAST_MAX,
  duration: TOAST_DURATION_MS,
  pauseOnPageIdle: true,
});

export function Toaster() {
  const { t } = useLingui();
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }}>
            {toast.type === 'loading' ? <Spinner size="sm" color="blue.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.action && <Toast.ActionTrigger>{toast.action.label}</Toast.ActionTrigger>}
            {toast.closable !== false && <Toast.CloseTrigger aria-label={t`Fermer`} />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}

/** Shorthands used across features. */
export const notify = {
  success: (title: string, description?: string) => toaster.create({ type: 'success', title, description }),
  error: (title: string, description?: string) => toaster.create({ type: 'error', title, description }),
  info: (title: string, description?: string) => toaster.create({ type: 'info', title, description }),
  warning: (title: string, description?: string) => toaster.create({ type: 'warning', title, description }),
};
