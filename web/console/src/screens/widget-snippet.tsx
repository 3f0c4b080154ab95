// « Intégrer un widget »: the code a commune's website pastes (docs/widgets.md, putting a widget on a page) for the
// kind, commune, sector and colour chosen, to copy, and the widget itself below it: a frame of this server's
// `/embed/KIND?…`, which the console may frame (the embed pages' frame-ancestors holds 'self'), sized as `/widget.js`
// sizes it, from the height the page inside posts.
import { useEffect, useRef, useState } from 'preact/hooks';
import { getAll } from '../api.ts';
import { ColorField, RadioGroup, SelectField } from '../form-fields.tsx';
import { quoted } from '../french.ts';
import type { City, Place } from '../types.ts';
import { Problem, Status, useResource } from '../ui.tsx';

const KINDS = [
  { value: 'calendrier', label: 'Jours de collecte' },
  { value: 'tri', label: 'Où jeter\u202f?' },
  { value: 'points', label: 'Points d’apport' },
  { value: 'demande', label: 'Signaler un problème' },
] as const;
type Kind = (typeof KINDS)[number]['value'];

/** What `data-color` takes (web/src/embed/theme.ts reads the same). */
const COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A widget's attributes, in the order the snippet writes them; an empty one is left out. */
interface WidgetChoice {
  collecte: Kind;
  city: string;
  place: string;
  color: string;
}

/** The element and the loader's script, as a commune's page holds them. */
function widgetSnippet(origin: string, choice: WidgetChoice): string {
  const attributes = (['collecte', 'city', 'place', 'color'] as const)
    .filter((name) => choice[name] !== '')
    .map((name) => ` data-${name}="${choice[name]}"`)
    .join('');
  return `<div${attributes}></div>\n<script src="${origin}/widget.js" async></script>`;
}

/** The frame `/widget.js` draws for these attributes. */
function embedUrl(choice: WidgetChoice): string {
  const query = new URLSearchParams({ city: choice.city });
  if (choice.place) query.set('place', choice.place);
  if (choice.color) query.set('color', choice.color);
  return `/embed/${choice.collecte}?${query}`;
}

export function WidgetSnippet({ cities, chosenCityId }: { cities: City[]; chosenCityId: string | null }) {
  const [kind, setKind] = useState<Kind>('calendrier');
  const [cityId, setCityId] = useState(cities.find((c) => c.id === chosenCityId)?.id ?? cities[0]?.id ?? '');
  const [placeId, setPlaceId] = useState('');
  const [color, setColor] = useState('');
  const [copied, setCopied] = useState<string | null>(null);
  const places = useResource(kind === 'calendrier' && cityId ? `widget-places:${cityId}` : null, () => getAll<Place>(`/admin/cities/${cityId}/places`));

  const typedColor = color.trim();
  const colorError = typedColor !== '' && !COLOR.test(typedColor) ? 'Une couleur s’écrit #RRGGBB ou #RGB, par exemple #0055a4.' : null;
  const choice: WidgetChoice = {
    collecte: kind,
    city: cityId,
    place: kind === 'calendrier' ? placeId : '',
    color: colorError ? '' : typedColor.toLowerCase(),
  };
  const snippet = widgetSnippet(location.origin, choice);
  useEffect(() => setCopied(null), [snippet]);

  if (cities.length === 0) {
    return (
      <>
        <h2>Intégrer un widget</h2>
        <p>Cette collectivité n’a encore aucune commune.</p>
      </>
    );
  }
  const city = cities.find((c) => c.id === cityId);
  const kindLabel = KINDS.find((k) => k.value === kind)!.label;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied('Code copié dans le presse-papiers.');
    } catch {
      setCopied('La copie a échoué\u00a0: sélectionnez le code et copiez-le à la main.');
    }
  };

  return (
    <>
      <h2>Intégrer un widget</h2>
      <div class="card widget-choices">
        <RadioGroup legend="Widget" value={kind} options={KINDS.map((k) => ({ value: k.value, label: k.label }))} onChange={setKind} />
        <div>
          <SelectField
            label="Commune"
            value={cityId}
            options={cities.map((c) => ({ value: c.id, label: c.status === 'NON_ACTIF' ? `${c.name} (non publiée)` : c.name }))}
            onChange={(id) => {
              setCityId(id);
              setPlaceId('');
            }}
          />
          {kind === 'calendrier' &&
            (places.error ? (
              <Problem error={places.error} retry={places.reload} />
            ) : (
              <SelectField
                label="Secteur (facultatif)"
                hint="Sans secteur, l’habitant trouve le sien par son adresse."
                value={placeId}
                options={[{ value: '', label: 'Aucun' }, ...(places.data ?? []).map((p) => ({ value: p.id, label: p.name }))]}
                onChange={setPlaceId}
              />
            ))}
          <ColorField
            label="Couleur d’accent (facultatif)"
            hint={'Celle du site de la commune, pour les boutons, les liens et le jour choisi\u202f; vide, le vert de Collecte. Trop claire pour être lue sur du blanc, elle est assombrie.'}
            value={color}
            fallback="#14532d"
            error={colorError}
            onInput={setColor}
          />
        </div>
      </div>

      <h3>Code à coller</h3>
      <p class="hint">
        Dans la page du site de la commune, là où le widget doit apparaître (un bloc {quoted('HTML')} suffit). Le script ne s’inclut qu’une fois par page,
        quel que soit le nombre de widgets.
      </p>
      <pre class="snippet">
        <code>{snippet}</code>
      </pre>
      <p>
        <button type="button" class="button" onClick={() => void copy()}>
          Copier<span class="visually-hidden"> le code</span>
        </button>
      </p>
      {copied && <Status>{copied}</Status>}

      <h3>Aperçu</h3>
      {city?.status === 'NON_ACTIF' && (
        <p class="notice">{city.name} n’est pas publiée&nbsp;: son widget n’affiche rien tant qu’elle ne l’est pas.</p>
      )}
      <Preview src={embedUrl(choice)} title={`Aperçu du widget ${quoted(kindLabel)}`} />
    </>
  );
}

/** The widget as a commune's page shows it; its height follows what the page inside posts, as `/widget.js` does. */
function Preview({ src, title }: { src: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState<number | null>(null);
  useEffect(() => setHeight(null), [src]);
  useEffect(() => {
    const listen = (event: MessageEvent) => {
      if (event.origin !== location.origin || event.source !== frame.current?.contentWindow) return;
      const data = event.data as { collecte?: unknown; height?: unknown } | null;
      if (data?.collecte === 'height' && typeof data.height === 'number' && data.height > 0) setHeight(Math.min(Math.ceil(data.height), 4000));
    };
    addEventListener('message', listen);
    return () => removeEventListener('message', listen);
  }, []);
  const { onFrameLoad } = useFocusKept(frame);
  return (
    <iframe
      ref={frame}
      class="widget-preview"
      src={src}
      title={title}
      allow="geolocation"
      style={height ? { height: `${height}px` } : undefined}
      onLoad={onFrameLoad}
    />
  );
}

/**
 * Keeps the agent's focus in the console when the preview's page takes it by itself. A widget's page should take none
 * (docs/widgets.md), yet one that moves on arrival (a commune of one sector goes straight to its calendar, whose
 * title takes the focus) would pull the agent out of the choices each time they change: that focus goes back where it
 * was. The agent's own moves into the frame (Tab, a click in it) are kept.
 */
function useFocusKept(frame: { current: HTMLIFrameElement | null }): { onFrameLoad: () => void } {
  const byAgent = useRef(false);
  useEffect(() => {
    // Where the focus was (the screen's title, focused on arrival before this effect ran), then wherever it goes.
    let last = document.activeElement !== document.body ? (document.activeElement as HTMLElement | null) : null;
    let restoring: ReturnType<typeof setTimeout> | undefined;
    const onFocusIn = (event: FocusEvent) => {
      last = event.target as HTMLElement;
      byAgent.current = false;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      byAgent.current = event.key === 'Tab';
    };
    // Chromium says a frame taking the focus by a blur of this window (no focus event on the frame's element).
    const onBlur = () => {
      const taken = document.activeElement === frame.current && !byAgent.current;
      byAgent.current = false;
      if (!taken) return;
      // After the blur has run its course: given back during it, the keys would still go to the frame.
      const back = last;
      restoring = setTimeout(() => (back?.isConnected ? back : document.querySelector<HTMLElement>('main h1'))?.focus({ preventScroll: true }));
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('keydown', onKeyDown, true);
    addEventListener('blur', onBlur);
    return () => {
      clearTimeout(restoring);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('keydown', onKeyDown, true);
      removeEventListener('blur', onBlur);
    };
  }, []);
  return {
    // Each page the frame loads is this origin's: a click in it is the agent's.
    onFrameLoad: () => frame.current?.contentDocument?.addEventListener('pointerdown', () => (byAgent.current = true), true),
  };
}
