// A document as a few block kinds, rendered to Markdown and to HTML from the same data (the
// findings report is both).
import { escapeHtml } from '../report/html';

export type Block =
  | { kind: 'h1' | 'h2' | 'h3' | 'p'; text: string }
  | { kind: 'quote'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'table'; head: string[]; rows: string[][] };

/** [text](href) links are the only inline markup; **bold** is kept in Markdown, dropped in HTML. */
function inlineHtml(s: string): string {
  return escapeHtml(s)
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function toMarkdown(blocks: Block[]): string {
  const out: string[] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case 'h1':
      case 'h2':
      case 'h3':
        out.push(`${'#'.repeat(Number(b.kind[1]))} ${b.text}`, '');
        break;
      case 'p':
        out.push(b.text, '');
        break;
      case 'quote':
        out.push(`> ${b.text}`, '');
        break;
      case 'list':
        out.push(...b.items.map((i) => `- ${i}`), '');
        break;
      case 'table':
        out.push(`| ${b.head.map(cell).join(' | ')} |`, `|${b.head.map(() => '---').join('|')}|`, ...b.rows.map((r) => `| ${r.map(cell).join(' | ')} |`), '');
    }
  }
  return out.join('\n');
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:2em;max-width:1300px}table{border-collapse:collapse;font-size:13px;margin:.5em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f4f4f4}blockquote{border-left:4px solid #999;margin:0;padding:.2em 1em;color:#333;font-style:italic}.reproduced{background:#e8f5e9}.refuted{background:#ffebee}.inconclusive{background:#fff8e1}.not-testable{background:#eceff1}`;

function verdictClass(row: string[]): string {
  const v = row.find((c) => /^\*\*(reproduced|refuted|inconclusive|not testable)\*\*$/.test(c));
  return v ? ` class="${v.replace(/\*/g, '').replace(' ', '-')}"` : '';
}

export function toHtml(title: string, blocks: Block[]): string {
  const body = blocks
    .map((b) => {
      if (b.kind === 'quote') return `<blockquote>${inlineHtml(b.text)}</blockquote>`;
      if (b.kind === 'list') return `<ul>${b.items.map((i) => `<li>${inlineHtml(i)}</li>`).join('')}</ul>`;
      if (b.kind !== 'table') return `<${b.kind}>${inlineHtml(b.text)}</${b.kind}>`;
      return `<table><tr>${b.head.map((h) => `<th>${inlineHtml(h)}</th>`).join('')}</tr>\n${b.rows.map((r) => `<tr${verdictClass(r)}>${r.map((c) => `<td>${inlineHtml(c)}</td>`).join('')}</tr>`).join('\n')}</table>`;
    })
    .join('\n');
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>\n<body>\n${body}\n</body></html>\n`;
}
