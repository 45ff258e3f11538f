import { Navigate, NavLink, Route, Routes, useNavigate } from 'react-router';
import { isStaff, useAuth } from './auth';
import { Login } from './pages/Login';
import { StudentHome } from './pages/StudentHome';
import { ExercisePage } from './pages/ExercisePage';
import { History, ProductionPage } from './pages/History';
import { TeacherExercises, ExerciseEditor } from './pages/TeacherExercises';
import { TeacherSessions, SessionResults } from './pages/TeacherSessions';
import { Console } from './pages/Console';
import { TraceView } from './pages/TraceView';
import { Loading } from './ui';

export function App() {
  const { user, ready, logout } = useAuth();
  const navigate = useNavigate();
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
              <NavLink to={isStaff(user) ? '/student' : '/'} end>
                My exercises
              </NavLink>
              <NavLink to="/history">My productions</NavLink>
              {isStaff(user) && <NavLink to="/teacher/exercises">Exercises</NavLink>}
              {isStaff(user) && <NavLink to="/teacher/sessions">Sessions</NavLink>}
              <NavLink to="/console">Console</NavLink>
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
        {user ? (
          <Routes>
            <Route path="/" element={isStaff(user) ? <TeacherSessions /> : <StudentHome />} />
            <Route path="/student" element={<StudentHome />} />
            <Route path="/statement/:psId" element={<ExercisePage />} />
            <Route path="/history" element={<History />} />
            <Route path="/production/:epId" element={<ProductionPage />} />
            <Route path="/teacher/exercises" element={<TeacherExercises />} />
            <Route path="/teacher/exercises/new" element={<ExerciseEditor />} />
            <Route path="/teacher/exercises/:exId" element={<ExerciseEditor />} />
            <Route path="/teacher/sessions" element={<TeacherSessions />} />
            <Route path="/teacher/sessions/:sessionId" element={<SessionResults />} />
            <Route path="/console" element={<Console />} />
            <Route path="/console/trace/:traceId" element={<TraceView />} />
            <Route path="/login" element={<Navigate to="/" replace />} />
            <Route path="*" element={<p role="alert" className="error">This page does not exist.</p>} />
          </Routes>
        ) : (
          <Login />
        )}
      </main>
    </>
  );
}
