/**
 * An entry's odometer photo as a picture to show (docs/PRODUCT.md#odometer-photo): from the tablet's
 * database while it waits there, from the server once it is sent (the service worker keeps a bounded
 * number of them, docs/ARCHITECTURE.md#odometer-photos).
 */
import { useEffect, useState } from 'react';
import { getRepairPhoto } from '../../../lib/api/repair-photo';
import { db } from '../../../lib/db';
import type { HistoryPhoto } from './history';

async function photoBlob(photo: HistoryPhoto): Promise<Blob | null> {
  if (photo.state !== 'sent') return (await db.photos.get(photo.localId))?.blob ?? null;
  const answer = await getRepairPhoto(photo.repairId);
  return answer.status === 'success' ? answer.blob : null;
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
    photoBlob(photo).then(
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
