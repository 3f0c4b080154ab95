// Loading a screen's data, as both apps do (the citizens' app at /, the agents' console at /console).
import { useEffect, useRef, useState } from 'preact/hooks';

export interface Resource<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
  /**
   * Holds `data` at once, as a write answered it (with its new version): a load started before is dropped when it ends,
   * so an earlier read cannot bring back the version the write replaced.
   */
  replace: (data: T) => void;
}

/** Loads a screen's data; a new `key` loads again, `reload()` too (keeping the old data on screen meanwhile). */
export function useResource<T>(key: string | null, load: () => Promise<T>): Resource<T> {
  const [state, setState] = useState<{ key: string | null; data: T | null; error: unknown }>({ key: null, data: null, error: null });
  const [attempt, setAttempt] = useState(0);
  // Bumped by `replace`: a load answers only if no write answered since it started.
  const replaced = useRef(0);
  useEffect(() => {
    if (key === null) return;
    let live = true;
    const started = replaced.current;
    setState((s) => (s.key === key ? { ...s, error: null } : { key, data: null, error: null }));
    load().then(
      (data) => live && started === replaced.current && setState({ key, data, error: null }),
      (error) => live && started === replaced.current && setState({ key, data: null, error }),
    );
    return () => {
      live = false;
    };
  }, [key, attempt]);
  const current = state.key === key;
  return {
    data: current ? state.data : null,
    error: current ? state.error : null,
    loading: key !== null && (!current || (state.data === null && state.error === null)),
    reload: () => setAttempt((n) => n + 1),
    replace: (data) => {
      replaced.current++;
      setState({ key, data, error: null });
    },
  };
}
