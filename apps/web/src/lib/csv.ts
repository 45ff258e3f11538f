/** CSV in and out for the teacher pages (RFC 4180 quoting on export). */

export function toCsv(rows: (string | number | null | undefined)[][]): string {
  const cell = (v: string | number | null | undefined) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return rows.map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

export interface RosterLine {
  email: string;
  firstname: string;
  lastname: string;
}

/**
 * A class list: one student a line, `email[,firstname,lastname]`; a header line naming
 * `email` and blank lines are skipped. Emails are lower-cased (the server stores them so).
 */
export function parseRoster(text: string): { students: RosterLine[]; invalid: string[] } {
  const students: RosterLine[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const [email = '', firstname = '', lastname = ''] = line.split(/[,;]/).map((f) => f.trim().replace(/^"(.*)"$/, '$1'));
    if (email.toLowerCase() === 'email') continue;
    if (!/^[^@\s]+@[^@\s]+$/.test(email)) invalid.push(line);
    else students.push({ email: email.toLowerCase(), firstname, lastname });
  }
  return { students, invalid };
}
