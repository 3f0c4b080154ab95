// Screens loaded on first use, so that the first screen ships only what it needs.
import { useEffect, useState } from 'preact/hooks';
import type { FunctionComponent } from 'preact';
import { ApiError } from './api.ts';
import { Loading, Problem } from './ui.tsx';

export function lazy<P extends object>(load: () => Promise<FunctionComponent<P>>): FunctionComponent<P> {
  let loaded: FunctionComponent<P> | null = null;
  return function Lazy(props: P) {
    const [component, setComponent] = useState(() => loaded);
    const [error, setError] = useState<unknown>(null);
    const [attempt, setAttempt] = useState(0);
    useEffect(() => {
      if (component) return;
      load().then(
        (c) => {
          loaded = c;
          setComponent(() => c);
        },
        () => setError(new ApiError("Cette partie de l'application n'a pas pu être chargée : vérifiez votre connexion, puis réessayez.", 0, true)),
      );
    }, [attempt]);
    if (component) {
      const Component = component;
      return <Component {...props} />;
    }
    if (error) return <Problem error={error} retry={() => { setError(null); setAttempt((n) => n + 1); }} />;
    return <Loading what="" />;
  };
}
