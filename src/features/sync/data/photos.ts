/** What the signed-in partner's odometer photos take on the tablet, live (docs/ARCHITECTURE.md#odometer-photos). */
import { useLocalQuery } from '../../../lib/local-query';
import { usePartnerId } from '../../../lib/partner';
import { partnerPhotoStorage, type PhotoStorage } from '../../../lib/entries';

export { dropSentEntriesPhotos } from '../../../lib/entries';

/** Null while it is read (or nobody is signed in). */
export function usePhotoStorage(): PhotoStorage | null {
  const partnerId = usePartnerId();
  return useLocalQuery(() => (partnerId ? partnerPhotoStorage() : Promise.resolve(null)), [partnerId], null);
}
