import { appendFileSync, mkdirSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from './browser.ts';

/** Where each check's findings are appended (one JSON line a check), for a person to read. */
const FINDINGS = new URL('../axe-findings.jsonl', `file://${SCREENSHOTS}`).pathname;

/** Rules that fail a check whatever axe's impact says: a page's headings outline it for a screen reader. */
const ALWAYS = new Set(['page-has-heading-one', 'heading-order']);

/**
 * axe-core's serious and critical findings on the page as it is now, each as
 * `rule (impact): element, element…`. Every rule axe runs by default is checked (WCAG 2.x A and
 * AA and the best practices) and one it holds back as experimental, that a control's name
 * contains its visible label (speech input users say what they see); minor and moderate
 * findings are not failures here, except the headings' outline.
 */
export async function axeFindings(page: Page, label: string): Promise<string[]> {
  // The page as it settles, not mid-transition: a button fading from disabled to enabled has, for
  // a moment, colours it never keeps.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  const { violations } = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  const found = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || ALWAYS.has(v.id))
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  appendFileSync(FINDINGS, `${JSON.stringify({ label, found })}\n`);
  return found;
}
