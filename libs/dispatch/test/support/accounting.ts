/**
 * Loss and duplication counted from what the CLIENT was told, never from the table being
 * checked: a production the client never heard of is "unaccounted" (a duplicate or a phantom),
 * an acknowledged one missing is "lost", anything not final after recovery is "stuck".
 */
export interface StoredProduction {
  id: number;
  submission_key: string;
  status: string;
}

export interface Audit {
  /** Productions the client was told were accepted (201/202 with an ep_id). */
  accepted: number;
  /** Requests whose answer never came (connection cut mid-flight). */
  cut: number;
  /** Rows in the database. */
  productions: number;
  graded: number;
  failed: number;
  /** Acknowledged ids with no row. */
  lost: number;
  /** Rows neither acknowledged nor from a cut request. */
  unaccounted: number;
  /** Rows (acknowledged or cut) not graded or failed. */
  stuck: number;
  /** Cut requests that left a final production (the rest left none). */
  cutStored: number;
}

const FINAL = new Set(['graded', 'failed']);

export function accountFor(acceptedIds: number[], cutKeys: string[], rows: StoredProduction[]): Audit {
  const accepted = new Set(acceptedIds);
  const cut = new Set(cutKeys);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const fromCut = rows.filter((r) => !accepted.has(r.id) && cut.has(r.submission_key));
  return {
    accepted: accepted.size,
    cut: cut.size,
    productions: rows.length,
    graded: rows.filter((r) => r.status === 'graded').length,
    failed: rows.filter((r) => r.status === 'failed').length,
    lost: [...accepted].filter((id) => !byId.has(id)).length,
    unaccounted: rows.filter((r) => !accepted.has(r.id) && !cut.has(r.submission_key)).length,
    stuck: rows.filter((r) => !FINAL.has(r.status)).length,
    cutStored: fromCut.length,
  };
}
