import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';

/** What a person sees, measured in the browser: axe's findings, and anything wider than its place. */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's WCAG 2.1 A/AA and best-practice findings on the page, one line per rule with its nodes. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated (not a script tag): the app's Content-Security-Policy refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }>;
        };
      }
    ).axe;
    // axe measures colours as drawn at one instant, so a toast fading in or out (react-hot-toast animates its
    // opacity, and under load a fade can start while axe runs) reads as grey text on white, though a person only ever
    // reads it whole. While axe runs every animation and transition shows its end state. A constructed sheet: the
    // app's Content-Security-Policy refuses <style> elements it did not write; `!important` beats inline styles.
    const settled = new CSSStyleSheet();
    settled.replaceSync('*, *::before, *::after { animation-duration: 0s !important; animation-delay: 0s !important; transition: none !important; }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, settled];
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const result = await axe
      .run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
        // Tagged "experimental" in axe-core, so off unless named: a control's name must contain the words it shows.
        rules: { 'label-content-name-mismatch': { enabled: true } },
      })
      .finally(() => {
        document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== settled);
      });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`).join(' | ')}`);
  });
}

/**
 * What sticks out of `root`: root itself scrolling sideways (scrollWidth > clientWidth), or any visible descendant
 * whose box lies left or right of root's box. Inside a sideways scroll container (a wide table in its wrapper) only the
 * container is measured: its content scrolls within it.
 */
export function overflowOf(root: Locator): Promise<string[]> {
  return root.evaluate((element) => {
    const found: string[] = [];
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''}`;
    if (element.scrollWidth > element.clientWidth) found.push(`${name(element)} scrollWidth ${element.scrollWidth} > clientWidth ${element.clientWidth}`);
    const outer = element.getBoundingClientRect();
    const scrolls = (el: Element) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
    const walk = (parent: Element) => {
      for (const child of Array.from(parent.children)) {
        const box = child.getBoundingClientRect();
        const style = getComputedStyle(child);
        if (style.display === 'none' || style.visibility === 'hidden' || (box.width <= 1 && box.height <= 1)) continue;
        if (box.left < outer.left - 0.5 || box.right > outer.right + 0.5)
          found.push(`${name(child)} spans ${Math.round(box.left)}–${Math.round(box.right)}, outside ${Math.round(outer.left)}–${Math.round(outer.right)}`);
        if (!scrolls(child)) walk(child);
      }
    };
    walk(element);
    return found;
  });
}

/** The page itself never scrolls sideways. */
export const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Every admin table on the page (`.table-wrap`, the card it scrolls in) against the rule "fits, or scrolls inside its
 * card, with no control clipped": the card lies inside the page's main column; a table wider than its card scrolls
 * inside it (overflow-x auto or scroll); each control in it (button, link, field) lies inside its own cell and, scrolled
 * to, is drawn whole inside the card. `fit: true` asks more: no table is wider than its card (nothing to scroll).
 * Returns what breaks the rule, empty when nothing does; the tables are scrolled back to their start.
 */
export function tableProblems(page: Page, { fit = false }: { fit?: boolean } = {}): Promise<string[]> {
  return page.evaluate((mustFit) => {
    const problems: string[] = [];
    const round = (box: DOMRect) => `${Math.round(box.left)}–${Math.round(box.right)}`;
    const main = document.querySelector('main')!.getBoundingClientRect();
    document.querySelectorAll<HTMLElement>('.table-wrap').forEach((wrap, index) => {
      if (!wrap.offsetParent) return;
      const heading = wrap.closest('section')?.querySelector('h2')?.textContent ?? document.querySelector('h1')?.textContent ?? '';
      const name = `table ${index + 1} (${heading})`;
      const card = wrap.getBoundingClientRect();
      if (card.left < main.left - 0.5 || card.right > main.right + 0.5) problems.push(`${name}: its card ${round(card)} sticks out of the page ${round(main)}`);
      const wider = wrap.scrollWidth > wrap.clientWidth + 1;
      if (wider && mustFit) problems.push(`${name}: ${wrap.scrollWidth} px wide in a ${wrap.clientWidth} px card`);
      if (wider && !['auto', 'scroll'].includes(getComputedStyle(wrap).overflowX)) problems.push(`${name}: wider than its card, which does not scroll`);
      wrap.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea').forEach((control) => {
        const label = `${name}: "${(control.textContent || control.getAttribute('aria-label') || control.tagName).trim()}"`;
        const cell = control.closest('td, th');
        if (cell) {
          const [box, own] = [control.getBoundingClientRect(), cell.getBoundingClientRect()];
          if (box.left < own.left - 0.5 || box.right > own.right + 0.5) problems.push(`${label} ${round(box)} runs out of its cell ${round(own)}`);
        }
        control.scrollIntoView({ block: 'nearest', inline: 'nearest' });
        const [box, shown] = [control.getBoundingClientRect(), wrap.getBoundingClientRect()];
        if (box.left < shown.left - 0.5 || box.right > shown.right + 0.5) problems.push(`${label} ${round(box)} is clipped by its card ${round(shown)}`);
      });
      wrap.scrollLeft = 0;
    });
    window.scrollTo(0, 0);
    return problems;
  }, fit);
}

/** The innermost elements drawn past the page's right edge (what makes it scroll sideways), for a failure message. */
export function pastTheRightEdge(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''}`;
    // Not what a scrolling or clipping box holds (that is drawn inside it), unless it is positioned out of its reach.
    const clipped = (el: Element) => {
      if (['absolute', 'fixed'].includes(getComputedStyle(el).position)) return false;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) if (getComputedStyle(up).overflowX !== 'visible') return true;
      return false;
    };
    // Its box, or the text running out of it (a word too long for its box draws past the box's edge).
    const right = (el: Element) => {
      const box = el.getBoundingClientRect().right + window.scrollX;
      const spill = getComputedStyle(el).overflowX === 'visible' ? Math.max(0, el.scrollWidth - el.clientWidth) : 0;
      return box + spill;
    };
    const past = Array.from(document.querySelectorAll('body *')).filter((el) => right(el) > width + 0.5 && !clipped(el));
    return past
      .filter((el) => !past.some((other) => other !== el && el.contains(other)))
      .slice(0, 10)
      .map((el) => `${name(el)} "${(el.textContent ?? '').trim().slice(0, 40)}" (${getComputedStyle(el).position}) right ${Math.round(right(el))}`);
  });
}

/**
 * Value cells (`selector`, e.g. the detail's `dd`) taller than `lines` lines of their own text: a value squeezed into a
 * narrow column breaks over many lines. Long values on full-width lines of their own (`.long-value`) are left out.
 */
export function tallValues(root: Locator, selector: string, lines = 2): Promise<string[]> {
  return root.evaluate(
    (element, [sel, max]) =>
      Array.from(element.querySelectorAll<HTMLElement>(sel as string))
        .filter((cell) => !cell.closest('.long-value'))
        .flatMap((cell) => {
          const style = getComputedStyle(cell);
          const line = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.2;
          const height = cell.getBoundingClientRect().height;
          return height > line * (max as number) + 2 ? [`"${cell.textContent}" is ${Math.round(height)} px tall (${Math.round(height / line)} lines)`] : [];
        }),
    [selector, lines] as const,
  );
}
