/**
 * Conditional requests (RFC 9110 §13.1.2). If-None-Match names entity tags in a list, each strong
 * ("…") or weak (W/"…"), or is `*`; for a GET it is compared weakly: W/"x" names "x" too.
 */

/** The opaque tag of an entity tag, its weak mark dropped: W/"abc" and "abc" are both "abc". */
function opaqueTag(entityTag: string): string {
  const tag = entityTag.trim();
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/** Whether an If-None-Match header names the current representation's entity tag. */
export function ifNoneMatchNames(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const current = opaqueTag(etag);
  // Entity tags hold no comma (RFC 9110 §8.8.3: etagc excludes it), so the list splits on commas.
  return header.split(',').some((listed) => opaqueTag(listed) === current);
}
