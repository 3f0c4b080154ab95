// The home screen's one box: a resident types their address (`12 rue jean jaures brest`) or their commune (`plouzane`,
// `29200`) without choosing a commune first (docs/api.md, finding one's commune or address without choosing it first).
// An address leads to its place's calendar, a commune to its screen, as the commune list then its address box do.
import { useEffect, useRef, useState } from 'preact/hooks';
import { getLive } from '../api.ts';
import { Link, navigate } from '../../shared/router.tsx';
import { chooseCity } from '../store.ts';
import type { CommuneCandidate, PlaceCandidate } from '../types.ts';
import { Problem, Title } from '../ui.tsx';

const NBSP = '\u00a0';
/** Typing pauses this long before the search leaves. */
const DEBOUNCE_MS = 250;
/** Two characters find a commune begun or a postcode begun (`29`); */
const MIN_CHARS = 2;
/** three are the least an address search says anything with. */
const ADDRESS_MIN_CHARS = 3;
/** Communes shown above addresses: a few, so that the addresses still show on a phone. */
const COMMUNES_BESIDE_ADDRESSES = 4;

type Choice = { kind: 'commune'; commune: CommuneCandidate } | { kind: 'address'; place: PlaceCandidate };

interface Answer {
  /** The text these answer (trimmed): an answer shows only while the box still holds it. */
  query: string;
  choices: Choice[] | null;
  error: unknown;
}

async function search(query: string, signal: AbortSignal): Promise<Choice[]> {
  const q = encodeURIComponent(query);
  const [communes, places] = await Promise.all([
    getLive<CommuneCandidate[]>(`/public/search/communes?q=${q}`, signal),
    query.length >= ADDRESS_MIN_CHARS ? getLive<PlaceCandidate[]>(`/public/search/addresses?q=${q}`, signal) : Promise.resolve([]),
  ]);
  const addressChoices = places.map((place): Choice => ({ kind: 'address', place }));
  const communeChoices = communes
    .slice(0, addressChoices.length > 0 ? COMMUNES_BESIDE_ADDRESSES : communes.length)
    .map((commune): Choice => ({ kind: 'commune', commune }));
  // A text that begins with a house number is an address: its streets first.
  return /^\d{1,4}(?!\d)/.test(query) ? [...addressChoices, ...communeChoices] : [...communeChoices, ...addressChoices];
}

const keyOf = (c: Choice) => (c.kind === 'commune' ? `commune:${c.commune.cityId}` : `address:${c.place.placeId}:${c.place.label}`);

function plural(n: number, word: string): string {
  return `${n} ${word}${n > 1 ? 's' : ''}`;
}

/** What the live region says of an answer: how many communes and addresses, and how to choose. */
function statusOf(choices: Choice[]): string {
  if (choices.length === 0) return 'Aucune commune ni adresse trouvée';
  const communes = choices.filter((c) => c.kind === 'commune').length;
  const addresses = choices.length - communes;
  const parts = [communes > 0 ? plural(communes, 'commune') : '', addresses > 0 ? plural(addresses, 'adresse') : ''].filter(Boolean);
  return `${parts.join(' et ')} trouvée${choices.length > 1 ? 's' : ''}, flèches haut et bas pour choisir`;
}

/** An ARIA 1.2 combobox whose listbox holds the communes and the addresses the text names, best first. */
export function HomeSearch() {
  const [text, setText] = useState('');
  const [answer, setAnswer] = useState<Answer>({ query: '', choices: null, error: null });
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [attempt, setAttempt] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const query = text.trim();
  const asked = query.length >= MIN_CHARS;

  useEffect(() => {
    if (!asked) return;
    // Latest request wins: a new keystroke cancels the pending timer and aborts the requests in flight.
    const controller = new AbortController();
    const timer = setTimeout(() => {
      search(query, controller.signal).then(
        (choices) => {
          setAnswer({ query, choices, error: null });
          setActive(-1);
        },
        (error) => {
          if (!controller.signal.aborted) setAnswer({ query, choices: null, error });
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, attempt]);

  const current = asked && answer.query === query;
  const choices = current ? (answer.choices ?? []) : [];
  const error = current ? answer.error : null;
  const expanded = open && choices.length > 0;
  const id = 'home-query';
  const optionId = (i: number) => `${id}-option-${i}`;
  const listId = `${id}-options`;
  const hintId = `${id}-hint`;

  const choose = (c: Choice) => {
    setOpen(false);
    if (c.kind === 'commune') {
      setText(c.commune.cityName);
      chooseCity(c.commune.cityId);
      navigate(`/communes/${c.commune.cityId}`);
    } else {
      setText(`${c.place.label}, ${c.place.cityName}`);
      chooseCity(c.place.cityId);
      navigate(`/communes/${c.place.cityId}/${c.place.placeId}`);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const n = choices.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (n === 0) return;
      event.preventDefault();
      const down = event.key === 'ArrowDown';
      if (!expanded) {
        setOpen(true);
        setActive(down ? 0 : n - 1);
      } else setActive(down ? (active + 1) % n : active <= 0 ? n - 1 : active - 1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      // The list is best first: Enter without moving takes the first.
      if (n > 0) choose(choices[expanded && active >= 0 ? active : 0]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      if (expanded) {
        setOpen(false);
        setActive(-1);
      } else setText('');
    }
  };

  return (
    <section>
      <Title text="Accueil">Quand passe la collecte chez moi&nbsp;?</Title>
      <p class="lead">Tapez votre adresse ou le nom de votre commune pour voir vos prochains jours de collecte.</p>
      <form role="search" class="address-finder card" onSubmit={(e) => e.preventDefault()}>
        <label for={id}>Votre adresse ou votre commune</label>
        <p id={hintId} class="hint muted">
          Par exemple le numéro, la rue et la commune, ou le code postal, puis choisissez dans la liste.
        </p>
        <input
          ref={input}
          id={id}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded ? 'true' : 'false'}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          aria-describedby={hintId}
          autocomplete="off"
          autocapitalize="off"
          spellcheck={false}
          placeholder={`Par exemple${NBSP}: 12 rue de Siam, Brest`}
          value={text}
          onInput={(e) => {
            setText((e.target as HTMLInputElement).value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
        />
        <ul id={listId} role="listbox" aria-label="Communes et adresses trouvées" class="suggestions" hidden={!expanded}>
          {choices.map((c, i) => (
            <li
              key={keyOf(c)}
              id={optionId(i)}
              role="option"
              aria-selected={i === active ? 'true' : 'false'}
              class={i === active ? 'active' : undefined}
              // Keeps the focus in the box, so that the click lands before the list closes on blur.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(c)}
            >
              {c.kind === 'commune' ? (
                <>
                  <span class="suggestion-label">{c.commune.cityName}</span>
                  <span class="visually-hidden">, </span>
                  <span class="suggestion-place">
                    Commune{c.commune.postcodes.length > 0 ? ` (${c.commune.postcodes.join(', ')})` : ''}
                    {c.commune.cityGroupName ? `, ${c.commune.cityGroupName}` : ''}
                  </span>
                </>
              ) : (
                <>
                  <span class="suggestion-label">{c.place.label}</span>
                  <span class="visually-hidden">, </span>
                  <span class="suggestion-place">
                    {c.place.cityName}, secteur {c.place.placeName}
                  </span>
                </>
              )}
            </li>
          ))}
        </ul>
        <p class="visually-hidden" aria-live="polite">
          {current && answer.choices ? statusOf(choices) : ''}
        </p>
        {current && answer.choices && choices.length === 0 && (
          <p class="card">
            Aucune commune ni adresse trouvée pour «{NBSP}{query}{NBSP}». Vérifiez l'orthographe, ou choisissez votre commune dans la liste
            ci-dessous.
          </p>
        )}
        {error != null && (
          <Problem
            error={error}
            retry={() => {
              input.current?.focus();
              setAttempt((n) => n + 1);
            }}
          />
        )}
      </form>
      <p>
        <Link href="/communes">Choisir ma commune dans la liste</Link>
      </p>
    </section>
  );
}
