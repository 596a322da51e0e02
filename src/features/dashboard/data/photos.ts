/**
 * An entry's odometer photo as a picture to show (docs/PRODUCT.md#odometer-photo): from the tablet's
 * database while it waits there, from the server once it is sent (the service worker keeps a bounded
 * number of them, docs/ARCHITECTURE.md#odometer-photos).
 */
import { useEffect, useState } from 'react';
import { getRepairPhoto } from '../../../lib/api/repair-photo';
import { db } from '../../../lib/db';
import type { HistoryPhoto } from '../../../lib/entries/history';

/**
 * A photo the server turned away for a moment (503 with Retry-After: too many photos moving at once,
 * docs/API.md#photo-traffic) is asked for again after that wait, this many times at most.
 */
const BUSY_RETRIES = 2;

async function photoBlob(photo: HistoryPhoto, stillWanted: () => boolean): Promise<Blob | null> {
  if (photo.state !== 'sent') return (await db.photos.get(photo.localId))?.blob ?? null;
  for (let retries = 0; ; retries++) {
    const answer = await getRepairPhoto(photo.repairId);
    if (answer.status === 'success') return answer.blob;
    const wait = answer.code === 503 ? answer.retryAfterMs : undefined;
    if (wait === undefined || retries >= BUSY_RETRIES || !stillWanted()) return null;
    await new Promise((resolve) => setTimeout(resolve, wait));
    if (!stillWanted()) return null;
  }
}

/** Where a photo stands, named once: it is loaded again only when it moves. */
function photoKey(photo: HistoryPhoto): string {
  return photo.state === 'sent' ? `sent:${photo.repairId}` : `here:${photo.localId}`;
}

export type PhotoImage = { kind: 'loading' } | { kind: 'shown'; url: string } | { kind: 'missing' };

/**
 * The photo as an object URL, revoked when the photo changes or the view goes. Nothing is read or
 * fetched until `wanted` (the thumbnail is near the screen, or the picture is opened): a long history
 * does not download every photo it lists.
 */
export function usePhotoImage(photo: HistoryPhoto, wanted = true): PhotoImage {
  const [image, setImage] = useState<{ key: string; image: PhotoImage } | null>(null);
  const key = photoKey(photo);
  useEffect(() => {
    if (!wanted) return;
    let url: string | null = null;
    let active = true;
    photoBlob(photo, () => active).then(
      (blob) => {
        if (!active) return;
        if (blob) url = URL.createObjectURL(blob);
        setImage({ key, image: url ? { kind: 'shown', url } : { kind: 'missing' } });
      },
      () => active && setImage({ key, image: { kind: 'missing' } }),
    );
    return () => {
      active = false;
      if (url) URL.revokeObjectURL(url);
    };
    // The key says all that matters of the photo: a new object for the same photo loads nothing again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, wanted]);
  return image?.key === key ? image.image : { kind: 'loading' };
}
