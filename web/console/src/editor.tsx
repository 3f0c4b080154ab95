// Editing one record as every screen does: the form kept as a draft (a session that expires loses nothing), the
// record's ETag sent as If-Match, and a 412 turned into a conflict the agent resolves (both changes merged field by
// field, reload or overwrite; merge.ts). The form
// that shows it all is editor-form.tsx's EditorForm.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, request, type Answer } from './api.ts';
import { setQuery } from './location.ts';
import { mergeVersions, type Choice } from './merge.ts';

const DRAFTS = 'collecte-console-draft:';

/** What a draft keeps: the form as typed, and the record (as a form) and ETag it started from. */
interface Draft<F> {
  form: F;
  base: F;
  etag: string | null;
}

export function readDraft<F>(key: string): Draft<F> | null {
  try {
    const raw = sessionStorage.getItem(DRAFTS + key);
    return raw ? (JSON.parse(raw) as Draft<F>) : null;
  } catch {
    return null;
  }
}

function writeDraft<F>(key: string, draft: Draft<F> | null, secret: (keyof F)[] = []) {
  try {
    // A secret field (a password) is never stored: the draft keeps it as the record had it.
    const kept = draft && { ...draft, form: { ...draft.form, ...Object.fromEntries(secret.map((k) => [k, draft.base[k]])) } };
    if (kept && JSON.stringify(kept.form) !== JSON.stringify(kept.base)) sessionStorage.setItem(DRAFTS + key, JSON.stringify(kept));
    else sessionStorage.removeItem(DRAFTS + key);
  } catch {
    // Storage full or refused: the form still works, only without its safety copy.
  }
}

export interface Conflict<R, F> {
  /** The record as it is now on the server, and its ETag. */
  current: R;
  etag: string | null;
  /** The version this form started from, and the current one, as forms. */
  base: F;
  theirs: F;
}

export interface EditorOptions<R, F> {
  /** Names the draft (one per record and form, `wasteType:<id>`, `wasteType:new:<cityId>`). */
  key: string;
  /** The record's own URL (GET, PATCH, DELETE); null for a record still to create. */
  url: string | null;
  /** Where a new record is POSTed. */
  createUrl?: string;
  /** The form of a new record. */
  empty: F;
  toForm: (record: R) => F;
  toBody: (form: F, creating: boolean) => unknown;
  /** After a save, with the record as the server answered it (`answer` adds its new version, its ETag). */
  onSaved?: (record: R, created: boolean, answer: Answer<R>) => void;
  /** Fields kept out of the stored draft (a password): after an expired session they are typed again. */
  secret?: (keyof F)[];
  /**
   * The record as the screen around the form holds it (the screen's own reading, kept fresh by the screen): the form
   * starts from it and follows each new one while it holds nothing of the agent's, instead of reading the record
   * itself. A form the agent changed stays on the version it started from, so that a save meets the other change as
   * a conflict. `reload()` starts again from it.
   */
  answer?: Answer<R>;
}

export interface Editor<R, F> {
  form: F | null;
  /** Changes some fields (the draft follows). */
  set: (patch: Partial<F>) => void;
  /** Whether the form differs from the record it started from. */
  dirty: boolean;
  /** The draft restored from before (after a new login, a reload). */
  restored: boolean;
  loadError: unknown;
  saveError: unknown;
  saving: boolean;
  conflict: Conflict<R, F> | null;
  save: () => Promise<void>;
  /** Sends the form again over the version another agent saved. */
  overwrite: () => Promise<void>;
  /** Sends both agents' changes (merge.ts), each clashing field as chosen, over the version the other agent saved. */
  merge: (choices: Partial<Record<keyof F & string, Choice>>) => Promise<void>;
  /** Replaces the form by `form` and saves it (a past version restored, screens/history.tsx). */
  saveForm: (form: F) => Promise<void>;
  /** Drops the form for the record as it is now. */
  reload: () => void;
  /** Forgets the draft (cancel). */
  discard: () => void;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useEditor<R, F extends object>(options: EditorOptions<R, F>): Editor<R, F> {
  const { key, url } = options;
  const [state, setState] = useState<{ key: string; draft: Draft<F> | null; restored: boolean }>({ key, draft: null, restored: false });
  const [loadError, setLoadError] = useState<unknown>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<Conflict<R, F> | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    setLoadError(null);
    setSaveError(null);
    setConflict(null);
    const kept = readDraft<F>(key);
    if (kept) return setState({ key, draft: kept, restored: true });
    if (url === null) return setState({ key, draft: { form: options.empty, base: options.empty, etag: null }, restored: false });
    if (options.answer) {
      const form = options.toForm(options.answer.data);
      return setState({ key, draft: { form, base: form, etag: options.answer.etag }, restored: false });
    }
    // A reload (reload(), the record changed elsewhere) keeps the form on screen while it reads the record again.
    const reloadingFrom = state.key === key ? state.draft : null;
    if (!reloadingFrom) setState({ key, draft: null, restored: false });
    let live = true;
    request<R>('GET', url).then(
      (answer) => {
        const form = options.toForm(answer.data);
        if (!live) return;
        setState((current) =>
          // The agent changed the form (or saved it) while it reloaded: that stands, on the version it started from;
          // a save then meets the other change as a conflict rather than losing the agent's.
          reloadingFrom && current.key === key && current.draft !== reloadingFrom
            ? current
            : { key, draft: { form, base: form, etag: answer.etag }, restored: false },
        );
      },
      (err) => live && setLoadError(err),
    );
    return () => {
      live = false;
    };
  }, [key, url, attempt]);

  // The screen read the record anew: the form follows unless it holds the agent's own (changes, a conflict, a save).
  const followed = options.answer;
  useEffect(() => {
    if (!followed || url === null || conflict || saving) return;
    setState((current) => {
      const held = current.key === key ? current.draft : null;
      if (!held || current.restored || held.etag === followed.etag || !same(held.form, held.base)) return current;
      const form = options.toForm(followed.data);
      return { key, draft: { form, base: form, etag: followed.etag }, restored: false };
    });
  }, [followed]);

  const draft = state.key === key ? state.draft : null;

  const update = (next: Draft<F>) => {
    writeDraft(key, next, options.secret);
    setState({ key, draft: next, restored: state.restored });
  };

  /** Saves `current` (the form, and the version it stands on); a 412 becomes the conflict. */
  const send = async (current: Draft<F> | null) => {
    if (!current) return;
    const { etag } = current;
    setSaving(true);
    setSaveError(null);
    try {
      const creating = url === null;
      const answer = creating
        ? await request<R>('POST', options.createUrl!, { body: options.toBody(current.form, true) })
        : await request<R>('PATCH', url, { body: options.toBody(current.form, false), ifMatch: etag });
      writeDraft(key, null);
      setConflict(null);
      const form = options.toForm(answer.data);
      setState({ key, draft: { form, base: form, etag: answer.etag }, restored: false });
      options.onSaved?.(answer.data, creating, answer);
    } catch (err) {
      if (err instanceof ApiError && err.status === 412 && url !== null) {
        // Someone saved meanwhile: show what they changed, from the record as it is now.
        try {
          const now = await request<R>('GET', url);
          const saved = options.toForm(now.data);
          setConflict({ current: now.data, etag: now.etag, base: current.base, theirs: saved });
        } catch (reloadErr) {
          setSaveError(reloadErr);
        }
      } else setSaveError(err);
    } finally {
      setSaving(false);
    }
  };

  return {
    form: draft?.form ?? null,
    set: (patch) => draft && update({ ...draft, form: { ...draft.form, ...patch } }),
    dirty: draft ? !same(draft.form, draft.base) : false,
    restored: state.key === key && state.restored,
    loadError,
    saveError,
    saving,
    conflict,
    save: () => send(draft),
    overwrite: async () => {
      if (!conflict || !draft) return;
      // The form now stands on the current version: a third agent's save would conflict again.
      const next = { form: draft.form, base: options.toForm(conflict.current), etag: conflict.etag };
      update(next);
      await send(next);
    },
    merge: async (choices) => {
      if (!conflict || !draft) return;
      const next = { form: mergeVersions(conflict.base, draft.form, conflict.theirs, choices), base: conflict.theirs, etag: conflict.etag };
      update(next);
      await send(next);
    },
    saveForm: async (form) => {
      if (!draft) return;
      const next = { ...draft, form };
      update(next);
      await send(next);
    },
    reload: () => {
      writeDraft(key, null);
      setConflict(null);
      setSaveError(null);
      if (conflict) {
        const form = options.toForm(conflict.current);
        setState({ key, draft: { form, base: form, etag: conflict.etag }, restored: false });
      } else setAttempt((n) => n + 1);
    },
    discard: () => writeDraft(key, null),
  };
}

/** Deletes a record as it is now: read for its ETag, then DELETE with If-Match (a change in between answers 412). */
export async function removeRecord(url: string): Promise<void> {
  const current = await request<unknown>('GET', url);
  await request<null>('DELETE', url, { ifMatch: current.etag });
}

/**
 * The `?edit=` form of a list screen: which record is open (`nouveau` for a new one), the status said after a save,
 * and the two moves (open a form; done with it, the list reloaded when something was saved).
 */
export function useEditing(query: URLSearchParams, reload: () => void) {
  const [status, setStatus] = useState<string | null>(null);
  return {
    editing: query.get('edit'),
    status,
    setStatus,
    open: (id: string) => {
      setStatus(null);
      setQuery('edit', id);
    },
    done: (message: string | null) => {
      setStatus(message);
      setQuery('edit', null);
      if (message) reload();
    },
  };
}
