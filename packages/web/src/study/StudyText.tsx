import Markdown, { type Components } from 'react-markdown';

/**
 * What the study file's texts may use (CommonMark): paragraphs, lists, emphasis, links, quotes,
 * headings and code. Raw HTML is never rendered (react-markdown builds React elements from the
 * Markdown's tree and leaves HTML out with `skipHtml`), an image shows as its description, and a
 * link's URL is made safe (no `javascript:`).
 */
const ALLOWED = [
  'p',
  'br',
  'em',
  'strong',
  'a',
  'ul',
  'ol',
  'li',
  'blockquote',
  'code',
  'pre',
  'hr',
  'img',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
];

/** The card's own heading is the page's h1, so the text's headings sit below it. */
const COMPONENTS: Components = {
  h1: ({ node: _n, ...props }) => <h2 {...props} />,
  h2: ({ node: _n, ...props }) => <h3 {...props} />,
  h3: ({ node: _n, ...props }) => <h4 {...props} />,
  h4: ({ node: _n, ...props }) => <h4 {...props} />,
  h5: ({ node: _n, ...props }) => <h4 {...props} />,
  h6: ({ node: _n, ...props }) => <h4 {...props} />,
  // An image is not loaded from wherever it is (before consent, too): its description stands in.
  img: ({ alt }) => alt ?? null,
  // A link opens beside the study, which stays where the participant was.
  a: ({ node: _n, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
};

/**
 * A text of the study file (consent, a task's briefing) as its Markdown says: a blank line
 * between paragraphs, `-` or `1.` for lists, `*emphasis*`, `**strong**`, `[links](https://…)`.
 * Lines that follow each other join into one paragraph, so a text wrapped in the file reads as
 * prose.
 */
export function StudyText({ text }: { text: string }) {
  return (
    <div className="flow-text flow-text--md">
      <Markdown skipHtml allowedElements={ALLOWED} unwrapDisallowed components={COMPONENTS}>
        {text}
      </Markdown>
    </div>
  );
}
