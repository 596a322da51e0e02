/**
 * Rich text from the server (the partner conditions, the tile attribution) is HTML: it is
 * sanitised before it reaches the page, whoever wrote it (docs/API.md#settings). Only plain
 * document markup survives: no scripts, event handlers, styles, forms or frames.
 */
import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';

const CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
  FORBID_ATTR: ['style'],
  ADD_ATTR: ['target'],
};

let purifier: Purifier | null = null;

function instance(): Purifier {
  if (purifier) return purifier;
  // A private instance: its hook does not leak into other users of DOMPurify.
  purifier = DOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    const href = node.getAttribute('href') ?? '';
    if (/^https?:/i.test(href)) {
      // Links leave the app in a new tab, without handing it the opener.
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    } else {
      node.removeAttribute('target');
    }
  });
  return purifier;
}

export function sanitizeHtml(html: string): string {
  return instance().sanitize(html, CONFIG);
}
