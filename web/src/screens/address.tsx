// Finding one's collection place from an address (suggestions as one types) or from the device's position
// (docs/api.md, from an address to a collection place, GET /public/places/lookup), on the commune screen above the list of places.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { getLive, messageOf } from '../api.ts';
import { Link, navigate } from '../../shared/router.tsx';
import type { PlaceCandidate } from '../types.ts';
import { FieldError, Problem } from '../ui.tsx';
import { canLocate, currentPosition, wasDenied } from '../position.ts';

const NBSP = '\u00a0';
/** Typing pauses this long before a suggestion request leaves. */
const DEBOUNCE_MS = 250;
/** Fewer characters than this say too little about a street to suggest anything. */
const MIN_CHARS = 3;

const calendarOf = (c: PlaceCandidate) => `/communes/${c.cityId}/${c.placeId}`;

function plural(n: number, word: string): string {
  return `${n} ${word}${n > 1 ? 's' : ''}`;
}

interface Suggestions {
  /** The text these answer (trimmed): an answer shows only while the box still holds it. */
  query: string;
  candidates: PlaceCandidate[] | null;
  error: unknown;
}

/** What an address box is for: its input's id, label and hint, and what a chosen candidate does. */
export interface AddressBoxProps {
  cityId: string;
  /** The input's id; the list's and hint's ids derive from it. */
  id: string;
  label: ComponentChildren;
  hint: string;
  /** An error to show under the hint, tied to the input (a form's refusal). */
  error?: string;
  /** The text the box starts with. */
  initial?: string;
  /** Each change of the text, as typed (a form that sends the address as written). */
  onText?: (text: string) => void;
  onChoose: (candidate: PlaceCandidate) => void;
}

/**
 * An address box: an ARIA 1.2 combobox whose listbox holds the candidates of `GET /public/places/lookup`, best first.
 * The commune screen goes to the chosen place's calendar; the booking form keeps the address and its place.
 */
export function AddressBox({ cityId, id, label, hint, error: formError, initial = '', onText, onChoose }: AddressBoxProps) {
  const [text, setText] = useState(initial);
  const [answer, setAnswer] = useState<Suggestions>({ query: '', candidates: null, error: null });
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [attempt, setAttempt] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const query = text.trim();
  const asked = query.length >= MIN_CHARS;

  useEffect(() => {
    if (!asked) return;
    // Latest request wins: a new keystroke cancels the pending timer and aborts the request in flight.
    const controller = new AbortController();
    const timer = setTimeout(() => {
      getLive<PlaceCandidate[]>(`/public/places/lookup?cityId=${encodeURIComponent(cityId)}&address=${encodeURIComponent(query)}`, controller.signal).then(
        (candidates) => {
          setAnswer({ query, candidates, error: null });
          setActive(-1);
        },
        (error) => {
          if (!controller.signal.aborted) setAnswer({ query, candidates: null, error });
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [cityId, query, attempt]);

  const current = asked && answer.query === query;
  const candidates = current ? (answer.candidates ?? []) : [];
  const error = current ? answer.error : null;
  const expanded = open && candidates.length > 0;
  const optionId = (i: number) => `${id}-option-${i}`;
  const listId = `${id}-options`;
  const hintId = `${id}-hint`;

  const choose = (c: PlaceCandidate) => {
    setOpen(false);
    setText(c.label);
    onChoose(c);
  };
  const typed = (value: string) => {
    setText(value);
    onText?.(value);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const n = candidates.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (n === 0) return;
      event.preventDefault();
      const down = event.key === 'ArrowDown';
      if (!expanded) {
        setOpen(true);
        setActive(down ? 0 : n - 1);
      } else setActive(down ? (active + 1) % n : active <= 0 ? n - 1 : active - 1);
    } else if (event.key === 'Enter') {
      if (!expanded) return;
      event.preventDefault();
      // The list is best first: Enter without moving takes the first.
      choose(candidates[active >= 0 ? active : 0]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      if (expanded) {
        setOpen(false);
        setActive(-1);
      } else typed('');
    }
  };

  // The commune screen offers its list of places below; a form keeps the address as typed.
  const notFoundTail = onText ? '.' : ', ou choisissez votre secteur ci-dessous.';
  let status = '';
  if (current && answer.candidates) {
    status = candidates.length ? `${plural(candidates.length, 'adresse')} trouvée${candidates.length > 1 ? 's' : ''}, flèches haut et bas pour choisir` : 'Aucune adresse trouvée';
  }

  return (
    <div class={formError ? 'address-finder field has-error' : 'address-finder'}>
      <label for={id}>{label}</label>
      <p id={hintId} class="hint muted">
        {hint}
      </p>
      <FieldError id={id} error={formError} />
      <input
        ref={input}
        id={id}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded ? 'true' : 'false'}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-describedby={formError ? `${hintId} ${id}-error` : hintId}
        aria-invalid={formError ? 'true' : undefined}
        autocomplete="off"
        autocapitalize="off"
        spellcheck={false}
        placeholder={`Par exemple${NBSP}: 12 rue de Siam`}
        value={text}
        onInput={(e) => {
          typed((e.target as HTMLInputElement).value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
      />
      <ul id={listId} role="listbox" aria-label="Adresses trouvées" class="suggestions" hidden={!expanded}>
        {candidates.map((c, i) => (
          <li
            key={`${c.placeId}:${c.label}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === active ? 'true' : 'false'}
            class={i === active ? 'active' : undefined}
            // Keeps the focus in the box, so that the click lands before the list closes on blur.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(c)}
          >
            <span class="suggestion-label">{c.label}</span>
            <span class="visually-hidden">, secteur </span>
            <span class="suggestion-place">{c.placeName}</span>
          </li>
        ))}
      </ul>
      <p class="visually-hidden" aria-live="polite">
        {status}
      </p>
      {current && answer.candidates && candidates.length === 0 && (
        <p class="card">
          Aucune adresse trouvée pour «{NBSP}{query}{NBSP}». Vérifiez le nom de la rue{notFoundTail}
        </p>
      )}
      {error != null && (
        <Problem
          error={error}
          retry={() => {
            // Back to the box, whose list opens with the new answer.
            input.current?.focus();
            setAttempt((n) => n + 1);
          }}
        />
      )}
    </div>
  );
}

/** The commune screen's address box: the chosen address opens its place's calendar. */
export function AddressFinder({ cityId }: { cityId: string }) {
  return (
    <AddressBox
      cityId={cityId}
      id="address-query"
      label="Votre adresse"
      hint="Tapez le numéro et le nom de votre rue, puis choisissez votre adresse dans la liste."
      onChoose={(c) => navigate(calendarOf(c))}
    />
  );
}

type Located =
  | { step: 'idle' }
  | { step: 'locating' }
  | { step: 'found'; candidates: PlaceCandidate[] }
  | { step: 'failed'; message: string };

const NOWHERE = `Aucun secteur de collecte n'a été trouvé à votre position${NBSP}: tapez votre adresse ci-dessus.`;
const DENIED = `Vous n'avez pas autorisé la localisation${NBSP}: tapez votre adresse ci-dessus, ou choisissez votre secteur ci-dessous.`;
const UNAVAILABLE = `Votre position n'a pas pu être déterminée${NBSP}: tapez votre adresse ci-dessus, ou choisissez votre secteur ci-dessous.`;

/** What a position matched, beside the place's name: nothing for its area (the label would repeat the name). */
function whereFound(c: PlaceCandidate): string {
  if (c.matchedBy === 'area') return '';
  return c.distanceMeters === null ? c.label : `${c.label}, à ${c.distanceMeters}${NBSP}m`;
}

/** « Me localiser »: the browser asks for the position only on this tap, never before. */
export function LocateMe({ cityId }: { cityId: string }) {
  const [state, setState] = useState<Located>({ step: 'idle' });
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );
  if (!canLocate()) return null;

  const locate = async () => {
    setState({ step: 'locating' });
    let position: GeolocationPosition;
    try {
      position = await currentPosition();
    } catch (err) {
      if (live.current) setState({ step: 'failed', message: wasDenied(err) ? DENIED : UNAVAILABLE });
      return;
    }
    const { latitude, longitude } = position.coords;
    try {
      const candidates = await getLive<PlaceCandidate[]>(
        `/public/places/lookup?cityId=${encodeURIComponent(cityId)}&lat=${latitude.toFixed(6)}&lon=${longitude.toFixed(6)}`,
      );
      if (!live.current) return;
      if (candidates.length === 1) navigate(calendarOf(candidates[0]));
      else if (candidates.length === 0) setState({ step: 'failed', message: NOWHERE });
      else setState({ step: 'found', candidates });
    } catch (err) {
      if (live.current) setState({ step: 'failed', message: messageOf(err) });
    }
  };

  return (
    <div class="locate">
      <button type="button" class="button secondary" onClick={locate} disabled={state.step === 'locating'}>
        Me localiser
      </button>
      {state.step === 'locating' && (
        <p class="loading" role="status">
          <span class="spinner" aria-hidden="true" /> Recherche de votre position…
        </p>
      )}
      {state.step === 'failed' && (
        <p class="notice" role="alert">
          {state.message}
        </p>
      )}
      {state.step === 'found' && (
        <>
          <p role="status">Plusieurs secteurs correspondent à votre position{NBSP}: choisissez le vôtre.</p>
          <ul class="choices" aria-label="Secteurs à votre position">
            {state.candidates.map((c) => (
              <li key={c.placeId}>
                <Link href={calendarOf(c)}>
                  <strong>{c.placeName}</strong> {whereFound(c) && <span class="muted">{whereFound(c)}</span>}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** The commune screen's way to one's place: the address box, then « Me localiser ». */
export function FindMyPlace({ cityId }: { cityId: string }) {
  return (
    <div class="find-place card">
      <AddressFinder cityId={cityId} />
      <LocateMe cityId={cityId} />
    </div>
  );
}
