/**
 * Assertions about what the mechanic sees, for component tests (the project has no jest-dom).
 * A `getBy…` query only proves an element is in the DOM: these say whether it is shown.
 */
import { expect } from 'vitest';

function describeElement(element: Element): string {
  const id = element.id ? `#${element.id}` : '';
  const part = element.getAttribute('data-part');
  return `<${element.tagName.toLowerCase()}${id}${part ? ` data-part="${part}"` : ''}>`;
}

/** Why the element is not shown (itself or an ancestor hidden), or null when it is. */
function hiddenBecause(element: Element): string | null {
  if (!element.isConnected) return `${describeElement(element)} is not in the document`;
  for (let node: Element | null = element; node; node = node.parentElement) {
    if (node.hasAttribute('hidden')) return `${describeElement(node)} has the hidden attribute`;
    const style = getComputedStyle(node);
    if (style.display === 'none') return `${describeElement(node)} has display: none`;
    if (style.visibility === 'hidden' || style.visibility === 'collapse') {
      return `${describeElement(node)} has visibility: ${style.visibility}`;
    }
    if (style.opacity === '0') return `${describeElement(node)} has opacity: 0`;
    if (node.tagName === 'DETAILS' && node !== element && !node.hasAttribute('open')) {
      return `${describeElement(node)} is closed`;
    }
  }
  return null;
}

/**
 * What jest-dom's toBeVisible checks: the element is in the document and neither it nor an ancestor
 * is hidden (hidden attribute, display: none, visibility: hidden, opacity: 0, a closed <details>).
 * Returns the element, for further assertions.
 */
export function expectVisible<E extends Element>(element: E): E {
  expect(hiddenBecause(element), `${describeElement(element)} "${element.textContent ?? ''}" is shown`).toBeNull();
  return element;
}
