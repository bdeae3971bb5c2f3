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
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
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
