/**
 * Who is logged in. The session lives in httpOnly cookies only: on start the app asks
 * GET /api/auth/verify (the refresh cookie) who it is; nothing is kept in local storage.
 */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, type SessionUser, type WebAppConfig } from './api';

interface AuthState {
  user: SessionUser | null;
  config: WebAppConfig;
  ready: boolean;
  login(email: string, password: string): Promise<void>;
  logout(): Promise<void>;
}

/** Until /app-config.json answers: the spec's default archive limit (1 MiB). */
const DEFAULT_CONFIG: WebAppConfig = { maxArchiveBytes: 1024 * 1024, traces: false, standalone: false };

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<SessionUser | null>(null);
  const [config, setConfig] = useState<WebAppConfig>(DEFAULT_CONFIG);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let live = true;
    // Ready once both have answered: the standalone console's config decides which pages exist.
    const config = api.config().then((c) => live && setConfig(c), () => undefined);
    const session = api.verify().then((u) => live && setUser(u), () => live && setUser(null));
    void Promise.all([config, session]).then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, []);

  const login = useCallback(async (email: string, password: string) => setUser(await api.login(email, password)), []);
  const logout = useCallback(async () => {
    try {
      await api.logout();
    } finally {
      setUser(null);
    }
  }, []);

  return <AuthContext.Provider value={{ user, config, ready, login, logout }}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth outside AuthProvider');
  return state;
}

export const isStaff = (u: SessionUser | null) => u?.role === 'teacher' || u?.role === 'admin';
/** The console's actions (compare, launch, watch, cancel) are an admin's only; the server checks the same. */
export const isAdmin = (u: SessionUser | null) => u?.role === 'admin';
