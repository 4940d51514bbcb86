import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { StudyText } from './StudyText.tsx';

const html = (text: string) => renderToStaticMarkup(createElement(StudyText, { text }));

describe('a study text (consent, briefing) as Markdown', () => {
  it('makes paragraphs of blank-line-separated text, and joins the lines a file wrapped', () => {
    expect(html('Thank you for your interest.\n\nYou will book movie tickets for\ntwo made-up situations.')).toBe(
      '<div class="flow-text flow-text--md"><p>Thank you for your interest.</p>\n<p>You will book movie tickets for\ntwo made-up situations.</p></div>',
    );
  });

  it('shows lists, emphasis and links, a link opening beside the study', () => {
    const out = html('We record:\n\n- what you do\n- *what* you **write**\n\n[More](https://example.org/info)');
    expect(out).toContain('<ul>\n<li>what you do</li>\n<li><em>what</em> you <strong>write</strong></li>\n</ul>');
    expect(out).toContain('<a href="https://example.org/info" target="_blank" rel="noopener noreferrer">More</a>');
  });

  it('renders no raw HTML, no script, no javascript: link and no image; headings sit below the card’s h1', () => {
    const out = html(
      '# Welcome\n\n<script>alert(1)</script>\n\nHi <b onclick="x()">there</b> <img src=x onerror=alert(1)>\n\n[click](javascript:alert(1)) ![tracker](https://example.org/t.png)',
    );
    expect(out).not.toMatch(/<script|<b|<img|onclick|onerror|javascript:|<h1/i);
    expect(out).toContain('<h2>Welcome</h2>');
    expect(out).toContain('<p>Hi there </p>');
    expect(out).toContain('>click</a>');
    expect(out).toContain('tracker');
  });
});
