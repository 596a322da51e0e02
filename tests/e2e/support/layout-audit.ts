/**
 * The layout audit (tests/e2e/layout.test.ts): geometry checks run inside the page on whatever the
 * screen shows at that moment, each finding described well enough to act on without a screenshot (a
 * selector-like path, the text, the sizes in CSS pixels).
 *
 * What is checked, and why (a tablet in a workshop, used with a finger, often with gloves):
 * - page-scroll: the page never scrolls sideways;
 * - sideways-scroll: from 800 px wide, no table or card needs sideways scrolling to show its content;
 * - dialog-fit: an open dialog that is taller than the screen can be scrolled to its top and bottom
 *   (a dialog centred in a box too small for it loses its top, title and close button included);
 * - icon-size: an icon (an outermost SVG) is 12–32 px in width and height; pictures on the short
 *   ILLUSTRATIONS list may be any size;
 * - clipped-text: no control (button, link, menu item, tab, field, label, badge) cuts its text;
 * - target-size: primary targets 48 px, every other control 44 px, in both dimensions;
 * - covered: what is tapped at the centre of a control's visible part is that control (not a toast,
 *   the sticky header or anything else), and no toast is drawn over a control, a label or a heading of
 *   a form, a dialog or a menu (toasts let taps through, so the hit test alone would not see one
 *   hiding a button or the words that say what a field is);
 * - dialog-scroll: a dialog body that scrolls shows so while more lies below (its edge fades: a mask),
 *   so the last control in view is never cut at a line that looks final;
 * - dialog-height: a dialog whose body scrolls uses the height it has, unless the toasts need the strip
 *   below it (where they cannot stand beside it: less than 14rem between the dialog and the edge);
 *   The map's marker (Leaflet's 25×41 pin, docs/PRODUCT.md#maps-and-location-search) is the map's
 *   picture of the chosen point, not a target of its own: the map around it is what is tapped.
 * While a modal dialog is open only its own controls (and the toasts above it) are checked: the page
 * behind it is inert by design, and was audited in the state before.
 */
import type { Page } from 'playwright-core';
import { unclippedBox } from './geometry';

export type LayoutRule =
  | 'page-scroll'
  | 'sideways-scroll'
  | 'dialog-fit'
  | 'dialog-scroll'
  | 'dialog-height'
  | 'icon-size'
  | 'clipped-text'
  | 'target-size'
  | 'covered'
  | 'entry-fit';

export interface LayoutViolation {
  rule: LayoutRule;
  /** What is wrong, with the element's path, text, sizes and place on screen. */
  detail: string;
}

/**
 * The same finding in another state: the detail without places on screen (the same button sits lower
 * once a vehicle is shown) nor the attribute a lazy menu's trigger gains once its menu has loaded.
 */
export function findingKey(violation: { rule: string; detail: string }): string {
  const stable = violation.detail.replace(/ at \(-?\d+,-?\d+\)/g, '').replace(/\[data-part="trigger"\]/g, '');
  return `[${violation.rule}] ${stable}`;
}

export interface LayoutAuditOptions {
  /**
   * The accessible names of the primary actions in the page's language (Rechercher, Scanner,
   * Insérer): with every tab and menu item, the targets that must be 48 px.
   */
  primaryNames: readonly string[];
}

/**
 * SVGs that are pictures rather than icons, so any size is right for them. Kept short and explicit:
 * the map (Leaflet draws its own SVG), and what the product marks with data-illustration (the km
 * chart of the timeline and of a certificate, a certificate's QR code), each a picture with its own
 * text alternative.
 */
export const ILLUSTRATIONS: readonly string[] = ['.leaflet-container', '[data-illustration]'];

/** CSS pixels. */
export const LIMITS = {
  primaryTarget: 48,
  target: 44,
  iconMin: 12,
  iconMax: 32,
  /** From this viewport width on, nothing scrolls sideways inside the page either. */
  sidewaysFrom: 800,
  /** The narrowest room beside a dialog a toast can stand in (14rem), with its 1rem margins. */
  toastBeside: 224 + 32,
  /** What a dialog may leave below itself, besides the toasts' strip where they need it. */
  dialogMargin: 32,
} as const;

interface InPageInput {
  primaryNames: string[];
  illustrations: string[];
  limits: typeof LIMITS;
}

/**
 * Runs in the page (sent as source): everything it uses is declared inside it, but for `boxSeen`,
 * geometry.ts's unclippedBox, handed in as an argument (an import does not exist in the page).
 */
const inPageAudit = (
  { primaryNames, illustrations, limits }: InPageInput,
  boxSeen: typeof unclippedBox,
): LayoutViolation[] => {
  const found: LayoutViolation[] = [];
  const viewportWidth = document.documentElement.clientWidth;
  const viewportHeight = document.documentElement.clientHeight;
  const TOAST = '[data-scope="toast"][data-part="root"]';
  /** Pop-overs cover the page while open, by design: what lies under them is not "covered". */
  const POPOVER = '[role="menu"], [role="listbox"]';
  const CONTROLS =
    'button, a[href], [role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"], [role="tab"], ' +
    'input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"]), select, label, .chakra-badge';
  const TARGETS =
    'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="checkbox"], ' +
    '[role="radio"], [role="switch"], [role="tab"], [role="menuitem"], [role="menuitemradio"], ' +
    '[role="menuitemcheckbox"], [role="option"]';

  const px = (value: number) => Math.round(value);
  const oneLine = (text: string, max = 50) => {
    const flat = text.replace(/\s+/g, ' ').trim();
    return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  };
  const isVisible = (element: Element) => {
    const box = element.getBoundingClientRect();
    // 1 px or less: the visually hidden pattern (a label for screen readers, a native input under a custom look).
    if (box.width <= 1 || box.height <= 1) return false;
    return element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  };
  const clips = (value: string) => value === 'hidden' || value === 'clip';

  /** One step of a path: tag, a readable id, role, the Chakra/Leaflet class, and what names it. */
  const step = (element: Element) => {
    let text = element.tagName.toLowerCase();
    // Generated ids (React's useId, Zag's) say nothing to a reader.
    if (element.id && /^[a-z][\w-]{0,40}$/i.test(element.id) && !/^_?r_|^r\d/.test(element.id))
      text += `#${element.id}`;
    const role = element.getAttribute('role');
    if (role) text += `[role=${role}]`;
    const known = Array.from(element.classList).find((name) => /^(chakra|leaflet)-/.test(name));
    if (known) text += `.${known}`;
    for (const attribute of ['name', 'data-part', 'data-value', 'aria-label']) {
      const value = element.getAttribute(attribute);
      if (value) text += `[${attribute}="${oneLine(value, 60)}"]`;
    }
    return text;
  };
  const CONTEXTS =
    '[role="dialog"], [role="alertdialog"], [role="menu"], [data-scope="toast"][data-part="root"], header, ' +
    'form[aria-label], table, [role="tabpanel"], main';
  /** Where it is (the dialog, menu, header, table…), its last four steps, its text and its box. */
  const describe = (element: Element) => {
    const steps: string[] = [];
    for (let at: Element | null = element; at && at !== document.body && steps.length < 4; at = at.parentElement) {
      steps.unshift(step(at));
    }
    const context = element.parentElement?.closest(CONTEXTS);
    const where = context
      ? `in ${context.getAttribute('role') ?? context.tagName.toLowerCase()}` +
        `${context.getAttribute('aria-label') ? ` "${oneLine(context.getAttribute('aria-label') ?? '', 40)}"` : ''}: `
      : '';
    const box = element.getBoundingClientRect();
    const text = oneLine(element instanceof HTMLElement ? element.innerText : (element.textContent ?? ''));
    return `${where}${steps.join(' > ')}${text ? ` "${text}"` : ''} ${px(box.width)}×${px(box.height)} at (${px(box.left)},${px(box.top)})`;
  };

  /** Close enough to the accessible name for matching and for the ellipsis rule. */
  const accessibleName = (element: Element): string => {
    const labelledBy = element.getAttribute('aria-labelledby');
    if (labelledBy) {
      return labelledBy
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ')
        .trim();
    }
    const label = element.getAttribute('aria-label');
    if (label) return label.trim();
    if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement) {
      const labels = Array.from(element.labels ?? [])
        .map((node) => node.textContent ?? '')
        .join(' ');
      if (labels.trim()) return labels.trim();
    }
    return (element.getAttribute('title') ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();
  };
  const hasOwnText = (element: Element) =>
    Array.from(element.childNodes).some(
      (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
    );

  // The topmost open modal dialog (portals are appended, so the last one is on top).
  const modal =
    Array.from(document.querySelectorAll('[role="dialog"][aria-modal="true"], [role="alertdialog"][aria-modal="true"]'))
      .filter(isVisible)
      .at(-1) ?? null;
  const inScope = (element: Element) => !modal || modal.contains(element) || element.closest(TOAST) !== null;
  const all = Array.from(document.body.querySelectorAll('*'));

  // page-scroll: and what sticks out, among elements no ancestor clips.
  const root = document.scrollingElement ?? document.documentElement;
  if (root.scrollWidth > root.clientWidth) {
    const unclipped = (element: Element) => {
      for (let at = element.parentElement; at && at !== document.body; at = at.parentElement) {
        if (getComputedStyle(at).overflowX !== 'visible') return false;
      }
      return true;
    };
    const out = all.filter((element) => {
      const box = element.getBoundingClientRect();
      return (box.right > root.clientWidth + 1 || box.left < -1) && isVisible(element) && unclipped(element);
    });
    const outermost = out.filter((element) => !out.includes(element.parentElement as Element));
    found.push({
      rule: 'page-scroll',
      detail:
        `the page scrolls sideways: ${root.scrollWidth} px of content in a ${root.clientWidth} px viewport; ` +
        `sticking out: ${outermost.slice(0, 3).map(describe).join('; ') || '(nothing visible)'}`,
    });
  }

  // sideways-scroll: a scroll container whose content is wider than its box.
  if (viewportWidth >= limits.sidewaysFrom) {
    for (const element of all) {
      if (!inScope(element)) continue;
      const style = getComputedStyle(element);
      if (style.overflowX !== 'auto' && style.overflowX !== 'scroll') continue;
      if (element.scrollWidth <= element.clientWidth + 1 || !isVisible(element)) continue;
      const box = element.getBoundingClientRect();
      const rtl = style.direction === 'rtl';
      const beyond = Array.from(element.querySelectorAll('*'))
        .filter((inner) => hasOwnText(inner))
        .filter((inner) => {
          const innerBox = inner.getBoundingClientRect();
          return rtl ? innerBox.left < box.left - 1 : innerBox.right > box.right + 1;
        })
        .slice(0, 4)
        .map((inner) => {
          const innerBox = inner.getBoundingClientRect();
          return `"${oneLine(inner.textContent ?? '', 30)}" (${inner.tagName.toLowerCase()}, x ${px(innerBox.left)}–${px(innerBox.right)})`;
        });
      found.push({
        rule: 'sideways-scroll',
        detail:
          `${describe(element)} scrolls sideways: content ${element.scrollWidth} px wide in ${element.clientWidth} px ` +
          `(visible x ${px(box.left)}–${px(box.right)}); out of view: ${beyond.join(', ') || '(no text)'}`,
      });
    }
  }

  // dialog-fit: what of the open dialog no scroll can bring on screen.
  if (modal) {
    const box = modal.getBoundingClientRect();
    let container: Element | null = modal.parentElement;
    while (container && container !== document.body && !/auto|scroll/.test(getComputedStyle(container).overflowY)) {
      container = container.parentElement;
    }
    const scroller = container && container !== document.body ? container : root;
    const view = scroller === root ? { top: 0, bottom: viewportHeight } : scroller.getBoundingClientRect();
    const hiddenTop = view.top - box.top - scroller.scrollTop;
    const hiddenBottom =
      box.bottom - view.bottom - (scroller.scrollHeight - scroller.clientHeight - scroller.scrollTop);
    if (hiddenTop > 1 || hiddenBottom > 1) {
      const parts = [
        hiddenTop > 1 ? `its top ${px(hiddenTop)} px above the screen` : '',
        hiddenBottom > 1 ? `its bottom ${px(hiddenBottom)} px below it` : '',
      ].filter(Boolean);
      found.push({
        rule: 'dialog-fit',
        detail: `${parts.join(' and ')}, where no scroll reaches (${viewportHeight} px high screen): ${describe(modal)}`,
      });
    }
  }

  // dialog-scroll and dialog-height: a body that scrolls shows so, and has all the height it can.
  if (modal) {
    const box = modal.getBoundingClientRect();
    const scrolling = Array.from(modal.querySelectorAll('*')).filter((element) => {
      const style = getComputedStyle(element);
      return (
        /auto|scroll/.test(style.overflowY) && element.scrollHeight > element.clientHeight + 1 && isVisible(element)
      );
    });
    for (const body of scrolling) {
      const rest = body.scrollHeight - body.clientHeight - body.scrollTop;
      const style = getComputedStyle(body);
      const mask = style.maskImage || style.getPropertyValue('-webkit-mask-image');
      if (rest > 1 && (!mask || mask === 'none')) {
        found.push({
          rule: 'dialog-scroll',
          detail: `${px(rest)} px more below, with nothing to say so (no fade at its edge): ${describe(body)}`,
        });
      }
    }
    // The toasts stand on the physical left: beside the dialog when the room there is wide enough.
    const below = viewportHeight - box.bottom;
    if (scrolling.length > 0 && below > limits.dialogMargin && box.left >= limits.toastBeside) {
      found.push({
        rule: 'dialog-height',
        detail:
          `its body scrolls while ${px(below)} px of the screen stay empty below it (the toasts have ` +
          `${px(box.left)} px beside it): ${describe(modal)}`,
      });
    }
  }

  // icon-size: outermost SVGs outside the illustrations.
  for (const svg of Array.from(document.querySelectorAll('svg'))) {
    if (svg.parentElement?.closest('svg') || !inScope(svg) || !isVisible(svg)) continue;
    if (illustrations.some((selector) => svg.closest(selector))) continue;
    const box = svg.getBoundingClientRect();
    const fits = (size: number) => size >= limits.iconMin - 0.5 && size <= limits.iconMax + 0.5;
    if (fits(box.width) && fits(box.height)) continue;
    const host = svg.parentElement?.closest(TARGETS) ?? svg.parentElement ?? svg;
    found.push({
      rule: 'icon-size',
      detail: `icon ${px(box.width)}×${px(box.height)} px (allowed ${limits.iconMin}–${limits.iconMax}): ${describe(host)}`,
    });
  }

  // clipped-text: on the control or a text container inside it, then by any clipping ancestor.
  const ellipsisAllowed = (element: Element, control: Element) => {
    if (getComputedStyle(element).textOverflow !== 'ellipsis') return false;
    const full = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    const names = [accessibleName(control)];
    for (let at: Element | null = element; at; at = at === control ? null : at.parentElement) {
      const title = at.getAttribute('title');
      if (title) names.push(title);
    }
    return names.some((name) => name.replace(/\s+/g, ' ').includes(full));
  };
  for (const control of Array.from(document.querySelectorAll(CONTROLS))) {
    if (!inScope(control) || !isVisible(control)) continue;
    // A control inside another (a badge in a button) is checked with the outer one.
    if (control.parentElement?.closest(CONTROLS)) continue;
    let reported = false;
    const parts = [control, ...Array.from(control.querySelectorAll('*')).filter(hasOwnText)];
    for (const part of parts) {
      if (!isVisible(part)) continue;
      const style = getComputedStyle(part);
      const field = part instanceof HTMLInputElement || part instanceof HTMLSelectElement;
      const cutX = (field || clips(style.overflowX)) && part.scrollWidth > part.clientWidth + 1;
      const cutY = (field || clips(style.overflowY)) && part.scrollHeight > part.clientHeight + 1;
      if (!cutX && !cutY) continue;
      if (ellipsisAllowed(part, control)) continue;
      const text = part instanceof HTMLInputElement ? part.value : (part.textContent ?? '');
      const ellipsis =
        style.textOverflow === 'ellipsis' ? ', ellipsis without the full text in a title or the accessible name' : '';
      found.push({
        rule: 'clipped-text',
        detail:
          `"${oneLine(text, 60)}" cut: needs ${part.scrollWidth}×${part.scrollHeight} px, shown in ` +
          `${part.clientWidth}×${part.clientHeight} (overflow ${style.overflowX}/${style.overflowY}${ellipsis})` +
          `${part === control ? '' : ` in ${step(part)}`}; control: ${describe(control)}`,
      });
      reported = true;
      break;
    }
    if (reported) continue;
    // The text's own glyph boxes against every ancestor that clips (a menu's edge, a card's).
    const walker = document.createTreeWalker(control, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node && !reported; node = walker.nextNode()) {
      if (!(node.textContent ?? '').trim() || !node.parentElement || !isVisible(node.parentElement)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const text = range.getBoundingClientRect();
      if (text.width === 0 || text.height === 0) continue;
      for (let at: Element | null = node.parentElement; at && at !== document.body; at = at.parentElement) {
        const style = getComputedStyle(at);
        const box = at.getBoundingClientRect();
        const outX = clips(style.overflowX) && (text.left < box.left - 1 || text.right > box.right + 1);
        const outY = clips(style.overflowY) && (text.top < box.top - 1 || text.bottom > box.bottom + 1);
        if (!outX && !outY) continue;
        if (ellipsisAllowed(at, control)) break;
        found.push({
          rule: 'clipped-text',
          detail:
            `"${oneLine(node.textContent ?? '', 60)}" (text ${px(text.width)}×${px(text.height)} at ` +
            `(${px(text.left)},${px(text.top)})) cut by ${step(at)} ${px(box.width)}×${px(box.height)} at ` +
            `(${px(box.left)},${px(box.top)}); control: ${describe(control)}`,
        });
        reported = true;
        break;
      }
    }
  }

  // target-size and covered.
  const primaryRoles = new Set(['tab', 'menuitem', 'menuitemradio', 'menuitemcheckbox']);
  const toasts = Array.from(document.querySelectorAll(TOAST)).filter(isVisible);
  /**
   * WCAG 2.5.8's inline exception, kept narrow: a link (a[href] only) laid out inline (display inline,
   * inline-block or inline-flex) inside a block that has text of its own besides the link: a link in a
   * sentence, such as the conditions in the registration's consent. A link alone on its line is a target
   * like any other.
   */
  const inlineLink = (element: Element) => {
    if (element.tagName !== 'A' || !getComputedStyle(element).display.startsWith('inline')) return false;
    let block = element.parentElement;
    while (block && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
    const own = (element.textContent ?? '').trim();
    const around = (block?.textContent ?? '').replace(own, '').trim();
    return around.length > 0;
  };
  /**
   * The part of the element not cut by a scroll or clip container (a dialog's scrolled body, say), or
   * null when it is scrolled out of view there: its centre then lies inside every such container.
   */
  const visiblePart = (element: Element) => {
    const part = boxSeen(element);
    return part.right - part.left > 1 && part.bottom - part.top > 1 ? part : null;
  };
  for (const target of Array.from(document.querySelectorAll(TARGETS))) {
    if (!inScope(target) || !isVisible(target)) continue;
    if (target.matches('.leaflet-marker-icon')) continue;
    if (target.matches(':disabled') || target.getAttribute('aria-disabled') === 'true') continue;
    const own = target.getBoundingClientRect();
    // A checkbox or radio is tapped through its label too: its hit area is both boxes together.
    let hit = { left: own.left, top: own.top, right: own.right, bottom: own.bottom };
    const labels = target instanceof HTMLInputElement ? Array.from(target.labels ?? []) : [];
    if (target instanceof HTMLInputElement && (target.type === 'checkbox' || target.type === 'radio')) {
      for (const label of labels.filter(isVisible)) {
        const box = label.getBoundingClientRect();
        hit = {
          left: Math.min(hit.left, box.left),
          top: Math.min(hit.top, box.top),
          right: Math.max(hit.right, box.right),
          bottom: Math.max(hit.bottom, box.bottom),
        };
      }
    }
    const width = hit.right - hit.left;
    const height = hit.bottom - hit.top;
    const name = accessibleName(target);
    const primary =
      primaryRoles.has(target.getAttribute('role') ?? '') ||
      (target.matches('button, [role="button"]') && primaryNames.includes(name));
    const min = primary ? limits.primaryTarget : limits.target;
    if ((width < min - 0.5 || height < min - 0.5) && !inlineLink(target)) {
      found.push({
        rule: 'target-size',
        detail: `${primary ? 'primary ' : ''}target ${px(width)}×${px(height)} px, needs at least ${min}×${min}: ${describe(target)}`,
      });
    }

    // covered: the hit test at the centre of its visible part, for targets whose centre is on screen.
    const part = visiblePart(target);
    if (!part) continue;
    const x = (part.left + part.right) / 2;
    const y = (part.top + part.bottom) / 2;
    if (x < 0 || y < 0 || x >= viewportWidth || y >= viewportHeight) continue;
    const top = document.elementFromPoint(x, y);
    const reaches =
      top !== null &&
      (top === target ||
        target.contains(top) ||
        labels.some((label) => label === top || label.contains(top)) ||
        (top.closest('label') !== null && top.closest('label') === target.closest('label')));
    const underPopover = top !== null && top.closest(POPOVER) !== null && !target.closest(POPOVER);
    if (!reaches && !underPopover) {
      const by = !top
        ? 'nothing (outside the document)'
        : top.closest('header') && !target.closest('header')
          ? `the sticky header (${describe(top)})`
          : top.closest(TOAST)
            ? `a toast (${describe(top)})`
            : describe(top);
      found.push({
        rule: 'covered',
        detail: `a tap at its centre (${px(x)},${px(y)}) lands on ${by}: ${describe(target)}`,
      });
    }
  }
  // Toasts let taps through (pointer-events: none), so the hit test cannot see one drawn over a
  // control or over the words that say what it is: measured apart, in forms, dialogs and menus.
  const WORDS = 'label, legend, h1, h2, h3, [data-part="label"]';
  const HOSTS = `form, [role="dialog"], [role="alertdialog"], ${POPOVER}`;
  const underToasts = Array.from(document.querySelectorAll(`${TARGETS}, ${WORDS}`)).filter(
    (element) => !element.closest(TOAST) && element.closest(HOSTS) !== null && inScope(element) && isVisible(element),
  );
  for (const element of underToasts) {
    // A control inside a label (the consent's checkbox) is measured with it.
    if (element.parentElement?.closest(WORDS) && !element.matches(WORDS)) continue;
    const part = visiblePart(element);
    if (!part) continue;
    for (const toast of toasts) {
      const box = toast.getBoundingClientRect();
      const overlapX = Math.min(box.right, part.right) - Math.max(box.left, part.left);
      const overlapY = Math.min(box.bottom, part.bottom) - Math.max(box.top, part.top);
      if (overlapX <= 0 || overlapY <= 0) continue;
      found.push({
        rule: 'covered',
        detail:
          `under the toast "${oneLine(toast instanceof HTMLElement ? toast.innerText : '', 50)}" ` +
          `(${px(overlapX)}×${px(overlapY)} px of it hidden): ` +
          describe(element),
      });
    }
  }
  return found;
};

/** Runs every check on the page as it is now. */
export async function auditLayout(page: Page, options: LayoutAuditOptions): Promise<LayoutViolation[]> {
  const input: InPageInput = {
    primaryNames: [...options.primaryNames],
    illustrations: [...ILLUSTRATIONS],
    limits: LIMITS,
  };
  // Sent as source with a stand-in for `__name`: a transform that keeps function names (esbuild's, as
  // tsx runs it) wraps inner functions in that helper, which the page does not have.
  const source = `(() => {
    const __name = (target) => target;
    return (${inPageAudit.toString()})(${JSON.stringify(input)}, ${unclippedBox.toString()});
  })()`;
  return (await page.evaluate(source)) as LayoutViolation[];
}

/** One line per violation, its rule first. */
export function describeLayoutViolations(violations: readonly LayoutViolation[]): string {
  return violations.map((violation) => `[${violation.rule}] ${violation.detail}`).join('\n');
}

/**
 * entry-fit: the whole entry of the Add repair tab in view at once, the page at its top (on a tablet
 * in landscape or portrait the mechanic never scrolls to reach a field or Insert): every field, label
 * and button of the form, and the vehicle's readings (their heading, chart and first line), between
 * the sticky header and the bottom of the screen. What a scrolling list holds beyond its first lines
 * is the list's to show.
 */
export async function entryOutOfView(page: Page): Promise<LayoutViolation[]> {
  return page.evaluate(() => {
    window.scrollTo(0, 0);
    const form = document.querySelector('[role="tabpanel"]:not([hidden]) form');
    if (!form) return [];
    const headerBottom = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    const height = document.documentElement.clientHeight;
    const timeline = 'section[aria-labelledby="vehicle-timeline-title"]';
    const parts = Array.from(
      form.querySelectorAll(
        'input:not([type="hidden"]), select, button, label, [data-part="label"], ' +
          `${timeline} h2, ${timeline} [role="img"], ${timeline} li:first-child`,
      ),
    ).filter((element) => {
      if (element.closest(`${timeline} li`) && !element.matches('li')) return false;
      const box = element.getBoundingClientRect();
      return box.width > 1 && box.height > 1 && element.checkVisibility({ visibilityProperty: true });
    });
    const out = parts.filter((element) => {
      const box = element.getBoundingClientRect();
      return box.bottom > height + 0.5 || box.top < headerBottom - 0.5;
    });
    return out.map((element) => {
      const box = element.getBoundingClientRect();
      const text = ((element as HTMLElement).innerText || element.getAttribute('name') || element.tagName)
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 40);
      return {
        rule: 'entry-fit' as const,
        detail:
          `${element.tagName.toLowerCase()} "${text}" at y ${Math.round(box.top)}–${Math.round(box.bottom)}, ` +
          `outside the ${Math.round(headerBottom)}–${height} px in view: the mechanic scrolls to reach it`,
      };
    });
  });
}
