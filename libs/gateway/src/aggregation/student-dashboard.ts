/**
 * Paper 003's gateway aggregation, on the real application: a student's dashboard (enrolled
 * sessions, each with its exercise statements and the last production and grade of each) built
 * at the gateway from three calls made in parallel — sessions from Leftover, statements and
 * productions from Exercise — instead of by the client, one call after another.
 * Pure merge here; the fan-out is in dashboard-aggregator.ts.
 */

/** What the services answer (the views of libs/api, snake_case as the original SPA reads them). */
export interface SessionView {
  session_id: number;
  name: string;
  starts_at: string | null;
  ends_at: string | null;
  [field: string]: unknown;
}

export interface StatementView {
  ps_id: number;
  session_id: number | null;
  ex_id: number;
  statement: string;
  deadline: string | null;
  [field: string]: unknown;
}

export interface ProductionView {
  ep_id: number;
  ex_id: number;
  ps_id: number;
  status: string;
  grade: number | null;
  created_at: string;
  [field: string]: unknown;
}

export interface DashboardExercise {
  ps_id: number;
  ex_id: number;
  statement: string;
  deadline: string | null;
  /** The newest production for this statement, or null if none (or if Exercise did not answer). */
  last_production: Pick<ProductionView, 'ep_id' | 'status' | 'grade' | 'created_at'> | null;
  productions: number;
}

export interface DashboardSession {
  session_id: number;
  name: string;
  starts_at: string | null;
  ends_at: string | null;
  exercises: DashboardExercise[];
}

export interface Dashboard {
  sessions: DashboardSession[];
  /** True when a service did not answer: `unavailable` names it and its part is missing (empty). */
  partial: boolean;
  unavailable: { service: string; status: number; detail: string }[];
}

/** Newest first per statement: productions arrive newest first, but do not rely on it. */
function lastProductionByStatement(productions: readonly ProductionView[]): Map<number, { last: ProductionView; count: number }> {
  const byStatement = new Map<number, { last: ProductionView; count: number }>();
  for (const p of productions) {
    const seen = byStatement.get(p.ps_id);
    if (!seen) byStatement.set(p.ps_id, { last: p, count: 1 });
    else byStatement.set(p.ps_id, { last: p.created_at > seen.last.created_at ? p : seen.last, count: seen.count + 1 });
  }
  return byStatement;
}

function exerciseOf(s: StatementView, productions: Map<number, { last: ProductionView; count: number }>): DashboardExercise {
  const seen = productions.get(s.ps_id);
  const last = seen ? { ep_id: seen.last.ep_id, status: seen.last.status, grade: seen.last.grade, created_at: seen.last.created_at } : null;
  return { ps_id: s.ps_id, ex_id: s.ex_id, statement: s.statement, deadline: s.deadline, last_production: last, productions: seen?.count ?? 0 };
}

/** Sessions in the order Leftover listed them, each with its statements in id order. */
export function mergeDashboard(
  sessions: readonly SessionView[],
  statements: readonly StatementView[],
  productions: readonly ProductionView[],
  unavailable: Dashboard['unavailable'] = [],
): Dashboard {
  const last = lastProductionByStatement(productions);
  const bySession = new Map<number, StatementView[]>();
  for (const s of [...statements].sort((a, b) => a.ps_id - b.ps_id)) {
    if (s.session_id === null) continue;
    bySession.set(s.session_id, [...(bySession.get(s.session_id) ?? []), s]);
  }
  return {
    sessions: sessions.map((s) => ({
      session_id: s.session_id,
      name: s.name,
      starts_at: s.starts_at,
      ends_at: s.ends_at,
      exercises: (bySession.get(s.session_id) ?? []).map((st) => exerciseOf(st, last)),
    })),
    partial: unavailable.length > 0,
    unavailable,
  };
}
