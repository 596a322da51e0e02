/**
 * A scrolling box that shows it scrolls: while more lies below (or above) its visible part, that edge
 * fades out, so the last line in view never looks like the end (docs/PRODUCT.md#messages-and-toasts).
 * Used by dialog bodies and the vehicle timeline's list.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { SystemStyleObject } from '@chakra-ui/react';

interface Edges {
  above: boolean;
  below: boolean;
}

/** How far the fade reaches into the box. */
const FADE = '1.25rem';

/** The fade, drawn by the box's attributes (a mask: what is under it stays tappable). */
export const SCROLL_EDGES_CSS: SystemStyleObject = {
  '&[data-more-below]': { maskImage: `linear-gradient(to bottom, black calc(100% - ${FADE}), transparent)` },
  '&[data-more-above]': { maskImage: `linear-gradient(to top, black calc(100% - ${FADE}), transparent)` },
  '&[data-more-above][data-more-below]': {
    maskImage: `linear-gradient(to bottom, transparent, black ${FADE}, black calc(100% - ${FADE}), transparent)`,
  },
};

function measure(element: HTMLElement): Edges {
  const rest = element.scrollHeight - element.clientHeight - element.scrollTop;
  return { above: element.scrollTop > 1, below: rest > 1 };
}

/**
 * The ref to put on the scrolling box and the attributes that say which of its edges hide more;
 * measured on scroll, on a resize of the box or its content, and when its content changes.
 */
export function useScrollEdges<T extends HTMLElement>(): {
  ref: RefObject<T | null>;
  edges: { 'data-more-above'?: ''; 'data-more-below'?: '' };
} {
  const ref = useRef<T>(null);
  const [edges, setEdges] = useState<Edges>({ above: false, below: false });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => {
      const next = measure(element);
      setEdges((previous) => (previous.above === next.above && previous.below === next.below ? previous : next));
    };
    update();
    element.addEventListener('scroll', update, { passive: true });
    const resizes = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    resizes?.observe(element);
    const watchChildren = () => {
      for (const child of Array.from(element.children)) resizes?.observe(child);
    };
    watchChildren();
    const changes = new MutationObserver(() => {
      watchChildren();
      update();
    });
    changes.observe(element, { childList: true, subtree: true, characterData: true });
    return () => {
      element.removeEventListener('scroll', update);
      resizes?.disconnect();
      changes.disconnect();
    };
  }, []);
  return {
    ref,
    edges: {
      ...(edges.above ? { 'data-more-above': '' } : {}),
      ...(edges.below ? { 'data-more-below': '' } : {}),
    },
  };
}
