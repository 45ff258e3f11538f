// Seeded students (CSV `email,password,user_id,ex_id,ps_id`, written by `npm run db -- seed`).
// The values are plain (emails, passwords and ids we generate: no quotes, no commas), so a
// split is enough; anything else is rejected loudly rather than half-parsed.

export const USER_COLUMNS = ['email', 'password', 'user_id', 'ex_id', 'ps_id'];

export function parseUsersCsv(text) {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length === 0) throw new Error('users CSV is empty');
  const header = lines[0].split(',').map((h) => h.trim());
  const index = {};
  for (const col of USER_COLUMNS) {
    index[col] = header.indexOf(col);
    if (index[col] < 0) throw new Error(`users CSV lacks column ${col} (header: ${lines[0]})`);
  }
  const users = [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].indexOf('"') >= 0) throw new Error(`users CSV line ${i + 1}: quoted fields are not supported`);
    const cells = lines[i].split(',');
    if (cells.length !== header.length) throw new Error(`users CSV line ${i + 1}: ${cells.length} fields, expected ${header.length}`);
    const u = {};
    for (const col of USER_COLUMNS) u[col] = cells[index[col]].trim();
    users.push(u);
  }
  if (users.length === 0) throw new Error('users CSV has no rows');
  return users;
}

/** Round-robin reuse of accounts, as the paper's load test reuses its students. */
export function userFor(users, iterationInTest) {
  return users[iterationInTest % users.length];
}
