import type { Table } from './tables';

function esc(s: string): string {
  return s.replace(/\|/g, '\\|');
}

export function tableMarkdown(t: Table): string {
  const head = `| Metrics | ${t.columns.map(esc).join(' | ')} |`;
  const sep = `|---|${t.columns.map(() => '---:').join('|')}|`;
  const body = t.rows.map((r) => `| ${esc(r.label)} | ${r.cells.map(esc).join(' | ')} |`);
  return [`### ${t.title}`, '', head, sep, ...body, '', ...t.notes.map((n) => `- ${n}`), ''].join('\n');
}
