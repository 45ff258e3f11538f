/** The teachers' class lists (CSV in; results go out as the server's report CSV). */

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
