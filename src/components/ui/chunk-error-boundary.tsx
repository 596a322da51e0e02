/**
 * The boundary around each part of the app that loads on demand (screens, dialogs, menus, the map).
 * While the part's code loads, `loading` stands in for it (the boundary holds the Suspense). When the
 * code cannot be fetched, or the part fails to render, only the part is replaced, by a message with
 * Retry: the header, the form around it and what was typed in it stay as they were.
 */
import { Box, Button, HStack, Text } from '@chakra-ui/react';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Component, Suspense, type ReactNode } from 'react';
import { i18n } from '../../lib/i18n';
import { ChunkLoadError } from './retryable-lazy';
import { showToast } from './toaster';

const PART_FAILED = msg`Cette partie du portail n'a pas pu être chargée.`;
const CHECK_AND_RETRY = msg`Vérifiez la connexion, puis réessayez.`;
const RETRY = msg`Réessayer`;
const CANCEL = msg`Annuler`;

interface ChunkErrorBoundaryProps {
  children: ReactNode;
  /** Forgets the failed load (RetryableLazy.reset), so that rendering the part again fetches it again. */
  reset: () => void;
  /** What stands in for the part while its code loads; nothing by default. */
  loading?: ReactNode;
  /** What stands in for the part when it failed; by default the message with Retry in its place. */
  fallback?: (retry: () => void) => ReactNode;
  /** A new value clears a failure and renders the part again (a dialog closed, then opened again). */
  resetKey?: unknown;
}

interface ChunkErrorBoundaryState {
  failed: boolean;
  resetKey: unknown;
}

export class ChunkErrorBoundary extends Component<ChunkErrorBoundaryProps, ChunkErrorBoundaryState> {
  override state: ChunkErrorBoundaryState = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<ChunkErrorBoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(
    props: ChunkErrorBoundaryProps,
    state: ChunkErrorBoundaryState,
  ): Partial<ChunkErrorBoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override componentDidCatch() {
    // The failure is on screen now; whatever renders the part next (Retry, a new opening) loads afresh.
    this.props.reset();
  }

  retry = () => this.setState({ failed: false });

  override render() {
    if (!this.state.failed) return <Suspense fallback={this.props.loading ?? null}>{this.props.children}</Suspense>;
    return this.props.fallback ? this.props.fallback(this.retry) : <ChunkFailureNotice onRetry={this.retry} />;
  }
}

/**
 * The message in place of a part that failed. Floating, it stands where a dialog would have opened,
 * over the page, with Cancel to give up the dialog.
 */
export function ChunkFailureNotice({
  onRetry,
  onCancel,
  floating = false,
}: {
  onRetry: () => void;
  onCancel?: () => void;
  floating?: boolean;
}) {
  const { i18n: active } = useLingui();
  return (
    <Box
      role="alert"
      borderWidth="1px"
      borderColor="border.error"
      borderRadius="l3"
      bg={floating ? 'bg.panel' : 'bg.error'}
      p="4"
      {...(floating && {
        position: 'fixed',
        top: '20',
        insetInline: '4',
        mx: 'auto',
        maxWidth: 'md',
        zIndex: 'modal',
        boxShadow: 'lg',
      })}
    >
      <Text fontWeight="semibold" color="fg.error">
        {active._(PART_FAILED)}
      </Text>
      <Text mt="1">{active._(CHECK_AND_RETRY)}</Text>
      <HStack mt="3" gap="2" justify="flex-end" wrap="wrap">
        {onCancel && (
          <Button size="lg" variant="ghost" onClick={onCancel}>
            {active._(CANCEL)}
          </Button>
        )}
        <Button size="lg" variant="outline" onClick={onRetry} autoFocus={floating}>
          {active._(RETRY)}
        </Button>
      </HStack>
    </Box>
  );
}

/**
 * The same message as a toast, for a part that has no place of its own on the page (a menu, a
 * language's catalog). Returns a function that takes the toast away.
 */
export function notifyChunkFailure(retry: () => void): () => void {
  return showToast({
    type: 'error',
    title: () => i18n._(PART_FAILED),
    description: () => i18n._(CHECK_AND_RETRY),
    action: { label: () => i18n._(RETRY), onClick: retry },
  });
}

/**
 * For createRoot's onCaughtError: a part whose code could not be fetched is expected offline and
 * already told to the mechanic; any other error a boundary caught is a bug, logged as React would.
 */
export function reportCaughtError(error: unknown): void {
  if (error instanceof ChunkLoadError) return;
  console.error(error);
}
