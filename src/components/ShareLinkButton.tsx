/**
 * Hands a link on: the device's share sheet where the browser has one (WhatsApp, a message…), otherwise
 * the link copied, and where even that is refused (no clipboard outside https, a denied permission) the
 * link in a field, selected, to copy by hand.
 */
import { Button, chakra, Stack, Text, type ButtonProps } from '@chakra-ui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { makeIcon } from './ui/icons';
import { notify } from './ui/toaster';

const ShareIcon = makeIcon(
  <>
    <circle cx="18" cy="5" r="3" />
    <circle cx="6" cy="12" r="3" />
    <circle cx="18" cy="19" r="3" />
    <path d="M8.6 13.5l6.8 4M15.4 6.5l-6.8 4" />
  </>,
);

/** The share sheet closed without sharing: the person changed their mind, which is no failure. */
function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'name' in error && error.name === 'AbortError';
}

/** True once the share sheet is done with it (shared or cancelled); false without one, or when it failed. */
async function shareSheet(data: ShareData): Promise<boolean> {
  if (typeof navigator.share !== 'function') return false;
  try {
    await navigator.share(data);
    return true;
  } catch (error) {
    return isAbort(error);
  }
}

async function copyToClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The link to copy by hand, selected as it shows. */
function LinkField({ url }: { url: string }) {
  const { t } = useLingui();
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.select(), []);
  return (
    <Stack gap="1">
      <Text fontSize="sm">
        <Trans>Copiez ce lien :</Trans>
      </Text>
      {/* A plain field rather than Chakra's Input: its recipe would be split into a chunk of its own,
        fetched by every first load, for a field this rare fallback shows (docs/ARCHITECTURE.md#start-up). */}
      <chakra.input
        ref={field}
        readOnly
        value={url}
        dir="ltr"
        aria-label={t`Lien à copier`}
        onFocus={(event) => event.currentTarget.select()}
        width="full"
        minHeight="11"
        px="3"
        borderWidth="1px"
        borderColor="border"
        rounded="l2"
        bg="bg"
        color="fg"
        _focusVisible={{ outline: '2px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '0' }}
      />
    </Stack>
  );
}

export function ShareLinkButton(props: { url: string; title: string; text?: string; size?: ButtonProps['size'] }) {
  const { t } = useLingui();
  const [byHand, setByHand] = useState(false);

  async function share() {
    if (await shareSheet({ title: props.title, text: props.text, url: props.url })) return;
    if (await copyToClipboard(props.url)) notify.success(() => t`Lien copié`);
    else setByHand(true);
  }

  const button = (
    <Button variant="outline" size={props.size} minHeight="11" onClick={() => void share()}>
      <ShareIcon />
      <Trans>Partager</Trans>
    </Button>
  );
  if (!byHand) return button;
  return (
    <Stack gap="2" align="start">
      {button}
      <LinkField url={props.url} />
    </Stack>
  );
}
