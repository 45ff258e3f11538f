import { Component, lazy, Suspense, type ReactNode } from 'react';
import { Navigate, NavLink, Route, Routes, useLocation, useNavigate } from 'react-router';
import { isAdmin, isStaff, useAuth } from './auth';
import { Login } from './pages/Login';
import { StudentHome } from './pages/StudentHome';
import { ExercisePage } from './pages/ExercisePage';
import { History, ProductionPage } from './pages/History';
import { ErrorMessage, Loading } from './ui';

// Staff and researchers' pages load on first use: a student's first render does not wait for them.
const TeacherExercises = lazy(() => import('./pages/TeacherExercises').then((m) => ({ default: m.TeacherExercises })));
const ExerciseEditor = lazy(() => import('./pages/TeacherExercises').then((m) => ({ default: m.ExerciseEditor })));
const TeacherSessions = lazy(() => import('./pages/TeacherSessions').then((m) => ({ default: m.TeacherSessions })));
const SessionResults = lazy(() => import('./pages/TeacherSessions').then((m) => ({ default: m.SessionResults })));
const Console = lazy(() => import('./pages/Console').then((m) => ({ default: m.Console })));
const TrendPage = lazy(() => import('./pages/Trend').then((m) => ({ default: m.TrendPage })));
const Compare = lazy(() => import('./pages/Compare').then((m) => ({ default: m.Compare })));
const Launch = lazy(() => import('./pages/Launch').then((m) => ({ default: m.Launch })));
const LaunchWatch = lazy(() => import('./pages/LaunchWatch').then((m) => ({ default: m.LaunchWatch })));
const Findings = lazy(() => import('./pages/Findings').then((m) => ({ default: m.Findings })));
const Faults = lazy(() => import('./pages/Faults').then((m) => ({ default: m.Faults })));
const TraceView = lazy(() => import('./pages/TraceView').then((m) => ({ default: m.TraceView })));

/** A page that throws while rendering shows its error, not a blank page; another page clears it. */
class PageErrorBoundary extends Component<{ children: ReactNode; page: string }, { error: unknown; page: string }> {
  state = { error: undefined as unknown, page: this.props.page };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(props: { page: string }, state: { error: unknown; page: string }) {
    return props.page === state.page ? null : { error: undefined, page: props.page };
  }
  render() {
    return this.state.error === undefined ? this.props.children : <ErrorMessage error={this.state.error} />;
  }
}

export function App() {
  const { user, ready, logout, config } = useAuth();
  // The standalone console (npm run console) serves the console's pages only: no application behind it.
  const application = !config.standalone;
  const navigate = useNavigate();
  const { pathname } = useLocation();
  if (!ready) return <Loading what="your session" />;
  return (
    <>
      <header>
        <nav aria-label="Main">
          <NavLink to="/" className="brand">
            shellgrade
          </NavLink>
          {user && (
            <>
              {application && (
                <NavLink to={isStaff(user) ? '/student' : '/'} end>
                  My exercises
                </NavLink>
              )}
              {application && <NavLink to="/history">My productions</NavLink>}
              {application && isStaff(user) && <NavLink to="/teacher/exercises">Exercises</NavLink>}
              {application && isStaff(user) && <NavLink to="/teacher/sessions">Sessions</NavLink>}
              <NavLink to="/console" end>
                Console
              </NavLink>
              {isAdmin(user) && <NavLink to="/console/trend">Trend</NavLink>}
              {isAdmin(user) && <NavLink to="/console/launch">Launch</NavLink>}
              {isAdmin(user) && <NavLink to="/console/findings">Findings</NavLink>}
              {isAdmin(user) && <NavLink to="/console/faults">Faults</NavLink>}
            </>
          )}
        </nav>
        {user && (
          <div className="who">
            <span>
              {user.firstname} {user.lastname} ({user.role})
            </span>
            <button type="button" onClick={() => void logout().then(() => navigate('/login'))}>
              Log out
            </button>
          </div>
        )}
      </header>
      <main>
        <PageErrorBoundary page={pathname}>
          <Suspense fallback={<Loading what="the page" />}>
            {user ? (
              <Routes>
                {application ? <Route path="/" element={isStaff(user) ? <TeacherSessions /> : <StudentHome />} /> : <Route path="/" element={<Navigate to="/console" replace />} />}
                {application && <Route path="/student" element={<StudentHome />} />}
                {application && <Route path="/statement/:psId" element={<ExercisePage />} />}
                {application && <Route path="/history" element={<History />} />}
                {application && <Route path="/production/:epId" element={<ProductionPage />} />}
                {application && <Route path="/teacher/exercises" element={<TeacherExercises />} />}
                {application && <Route path="/teacher/exercises/new" element={<ExerciseEditor />} />}
                {application && <Route path="/teacher/exercises/:exId" element={<ExerciseEditor />} />}
                {application && <Route path="/teacher/sessions" element={<TeacherSessions />} />}
                {application && <Route path="/teacher/sessions/:sessionId" element={<SessionResults />} />}
                <Route path="/console" element={<Console />} />
                <Route path="/console/trace/:traceId" element={<TraceView />} />
                {isAdmin(user) && <Route path="/console/compare" element={<Compare />} />}
                {isAdmin(user) && <Route path="/console/trend" element={<TrendPage />} />}
                {isAdmin(user) && <Route path="/console/launch" element={<Launch />} />}
                {isAdmin(user) && <Route path="/console/launches/:id" element={<LaunchWatch />} />}
                {isAdmin(user) && <Route path="/console/findings" element={<Findings />} />}
                {isAdmin(user) && <Route path="/console/faults" element={<Faults />} />}
                <Route path="/login" element={<Navigate to="/" replace />} />
                <Route path="*" element={<p role="alert" className="error">This page does not exist.</p>} />
              </Routes>
            ) : (
              <Login />
            )}
          </Suspense>
        </PageErrorBoundary>
      </main>
    </>
  );
}
