// Renders the MDX of blog posts and CMS pages, in the citizens' app and in the console's preview alike: the Markdown
// subset they use, with the :::tip, :::warning and :::info callouts. Built as Preact elements, never as HTML strings,
// so that nothing in the content can run. JSX and import/export lines of MDX are left out.
import type { ComponentChildren, VNode } from 'preact';

const CALLOUTS: Record<string, string> = { tip: 'Astuce', warning: 'Attention', info: 'Bon à savoir' };

/** Links and images only to the web or this site: no javascript: or data: URLs. */
function safeUrl(url: string): string | null {
  const trimmed = url.trim();
  if (/^(https?:|mailto:|tel:)/i.test(trimmed) || /^\/(?!\/)/.test(trimmed) || /^#/.test(trimmed)) return trimmed;
  return null;
}

const INLINE = /(!\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\))|(\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\))|(\*\*([^*]+)\*\*)|(__([^_]+)__)|(\*([^*]+)\*)|(_([^_]+)_)|(`([^`]+)`)/g;

function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1]) {
      const src = safeUrl(m[3]);
      if (src) out.push(<img src={src} alt={m[2]} loading="lazy" />);
    } else if (m[4]) {
      const href = safeUrl(m[6]);
      out.push(href ? <a href={href}>{inline(m[5])}</a> : inline(m[5]));
    } else if (m[7] || m[9]) out.push(<strong>{inline(m[8] ?? m[10])}</strong>);
    else if (m[11] || m[13]) out.push(<em>{inline(m[12] ?? m[14])}</em>);
    else if (m[15]) out.push(<code>{m[16]}</code>);
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function blocks(lines: string[], headingShift: number): VNode[] {
  const out: VNode[] = [];
  let i = 0;
  const paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) out.push(<p>{inline(paragraph.join(' '))}</p>);
    paragraph.length = 0;
  };
  while (i < lines.length) {
    const line = lines[i];
    const trimmed = line.trim();
    let m: RegExpMatchArray | null;
    if (trimmed === '') {
      flush();
      i++;
    } else if ((m = trimmed.match(/^:::(\w+)\s*(.*)$/))) {
      flush();
      const kind = m[1] in CALLOUTS ? m[1] : 'info';
      const title = m[2] || CALLOUTS[kind];
      const inner: string[] = [];
      i++;
      while (i < lines.length && lines[i].trim() !== ':::') inner.push(lines[i++]);
      i++;
      out.push(
        <aside class={`callout callout-${kind}`} aria-label={title}>
          <p class="callout-title">{title}</p>
          {blocks(inner, headingShift)}
        </aside>,
      );
    } else if (trimmed.startsWith('```')) {
      flush();
      const code: string[] = [];
      i++;
      while (i < lines.length && !lines[i].trim().startsWith('```')) code.push(lines[i++]);
      i++;
      out.push(
        <pre>
          <code>{code.join('\n')}</code>
        </pre>,
      );
    } else if ((m = trimmed.match(/^(#{1,6})\s+(.*)$/))) {
      flush();
      const level = Math.min(6, m[1].length + headingShift);
      const Tag = `h${level}` as 'h2';
      out.push(<Tag>{inline(m[2])}</Tag>);
      i++;
    } else if (/^(-{3,}|\*{3,})$/.test(trimmed)) {
      flush();
      out.push(<hr />);
      i++;
    } else if (/^([-*+]\s+|\d+[.)]\s+)/.test(trimmed)) {
      flush();
      const ordered = /^\d/.test(trimmed);
      const items: string[] = [];
      while (i < lines.length && /^([-*+]\s+|\d+[.)]\s+)/.test(lines[i].trim())) {
        items.push(lines[i].trim().replace(/^([-*+]\s+|\d+[.)]\s+)/, ''));
        i++;
        // Continuation lines of an item.
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^([-*+]\s+|\d+[.)]\s+)/.test(lines[i].trim())) items[items.length - 1] += ` ${lines[i++].trim()}`;
      }
      const children = items.map((item) => <li>{inline(item)}</li>);
      out.push(ordered ? <ol>{children}</ol> : <ul>{children}</ul>);
    } else if (trimmed.startsWith('>')) {
      flush();
      const quote: string[] = [];
      while (i < lines.length && lines[i].trim().startsWith('>')) quote.push(lines[i++].trim().replace(/^>\s?/, ''));
      out.push(<blockquote>{blocks(quote, headingShift)}</blockquote>);
    } else if (/^(import|export)\s/.test(trimmed) || /^<\/?[A-Za-z][^>]*>$/.test(trimmed)) {
      // MDX module lines and JSX elements: nothing a citizen should see as text.
      flush();
      i++;
    } else {
      paragraph.push(trimmed);
      i++;
    }
  }
  flush();
  return out;
}

/** The content's headings start at h2 (the screen's title is the h1). */
export function Markdown({ source }: { source: string }) {
  return <div class="prose">{blocks(source.replace(/\r\n?/g, '\n').split('\n'), 1)}</div>;
}
