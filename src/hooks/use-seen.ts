/**
 * Whether an element has come near the screen yet: what is far down a long list waits until it is
 * scrolled to, as a native `loading="lazy"` would, for what cannot be a plain URL (a picture fetched
 * with the access token, docs/PRODUCT.md#odometer-photo).
 */
import { useEffect, useState, type RefObject } from 'react';

/**
 * True once `ref`'s element has come within `margin` of the viewport, and from then on. True at once
 * where the browser has no IntersectionObserver: everything loads, as before.
 */
export function useSeen(ref: RefObject<Element | null>, margin = '300px'): boolean {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        setSeen(true);
        observer.disconnect();
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, seen, margin]);
  return seen;
}
