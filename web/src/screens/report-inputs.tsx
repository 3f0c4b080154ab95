// The report form's inputs: each with its label, its hint and its error tied to it (aria-describedby), a list of
// choices in a fieldset with its legend; the position (« Me localiser », an address typed, and a map where the operator
// set a tile server) and the photos.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { get, messageOf, upload } from '../api.ts';
import type { LatLon } from '../map-tiles.ts';
import { canLocate, currentPosition, wasDenied } from '../position.ts';
import type { RequestField, RequestsConfig } from '../types.ts';
import { useResource } from '../../shared/resource.ts';
import { PositionMap } from './report-map.tsx';
import { FieldError } from '../ui.tsx';

const NBSP = '\u00a0';
/** A narrow no-break space: French thousands (« 2 000 »). */
const NNBSP = '\u202f';

export const DESCRIPTION_MAX = 2000;
/** The server's limits for a photo (docs/api.md, resident requests): checked here too, so that a phone does not send 10 MiB for nothing. */
const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const PHOTOS_MAX = 5;

/** The ids an input is described by: its hint, then its error. */
export function describedBy(id: string, hint: boolean, error: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return ids || undefined;
}

export const invalid = (error: string | undefined): 'true' | undefined => (error ? 'true' : undefined);

function Optional({ optional }: { optional?: boolean }) {
  return optional ? <span class="optional"> (facultatif)</span> : null;
}

function Hint({ id, children }: { id: string; children?: ComponentChildren }) {
  return children ? (
    <p id={`${id}-hint`} class="hint muted">
      {children}
    </p>
  ) : null;
}

/** One input: its label, hint and error around it (the input itself is the caller's, with `describedBy`). */
export function Field(props: { id: string; label: string; optional?: boolean; hint?: ComponentChildren; error?: string; children: ComponentChildren }) {
  const { id, label, optional, hint, error, children } = props;
  return (
    <div class={error ? 'field has-error' : 'field'}>
      <label for={id}>
        {label}
        <Optional optional={optional} />
      </label>
      <Hint id={id}>{hint}</Hint>
      <FieldError id={id} error={error} />
      {children}
    </div>
  );
}

/** Choices under one question: a fieldset whose legend is the question. */
export function Group(props: { id: string; legend: string; optional?: boolean; hint?: ComponentChildren; error?: string; children: ComponentChildren }) {
  const { id, legend, optional, hint, error, children } = props;
  return (
    <fieldset id={id} class={error ? 'field group has-error' : 'field group'} aria-describedby={describedBy(id, !!hint, error)}>
      <legend>
        {legend}
        <Optional optional={optional} />
      </legend>
      <Hint id={id}>{hint}</Hint>
      <FieldError id={id} error={error} />
      {children}
    </fieldset>
  );
}

/** A choice among records (places, waste types, points), the pre-filled one selected. */
export function SelectField(props: {
  id: string;
  label: string;
  optional: boolean;
  hint?: string;
  error?: string;
  value: string;
  options: { id: string; name: string }[];
  placeholder: string;
  onChange: (value: string) => void;
}) {
  const { id, label, optional, hint, error, value, options, placeholder, onChange } = props;
  return (
    <Field id={id} label={label} optional={optional} hint={hint} error={error}>
      <select
        id={id}
        value={value}
        aria-describedby={describedBy(id, !!hint, error)}
        aria-invalid={invalid(error)}
        onChange={(e) => onChange((e.target as HTMLSelectElement).value)}
      >
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** Lists of up to this many choices are radio buttons or checkboxes; longer ones a select. */
const RADIOS_MAX = 6;

/** The id of a type's field's input, from its code (any character a code may hold made safe for an id). */
export const attributeId = (code: string) => `report-attr-${code.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** One of the type's extra questions, drawn from its datatype. */
export function AttributeInput(props: { field: RequestField; value: string | string[] | undefined; error?: string; onChange: (value: string | string[]) => void }) {
  const { field, value, error, onChange } = props;
  const id = attributeId(field.code);
  const optional = !field.required;
  const text = typeof value === 'string' ? value : '';
  const aria = { 'aria-describedby': describedBy(id, false, error), 'aria-invalid': invalid(error) };
  const onText = (e: Event) => onChange((e.target as HTMLInputElement).value);
  switch (field.datatype) {
    case 'text':
      return (
        <Field id={id} label={field.label} optional={optional} error={error}>
          <textarea id={id} rows={4} maxLength={DESCRIPTION_MAX} value={text} onInput={onText} {...aria} />
        </Field>
      );
    case 'number':
      return (
        <Field id={id} label={field.label} optional={optional} error={error}>
          <input id={id} type="number" inputMode="decimal" step="any" value={text} onInput={onText} {...aria} />
        </Field>
      );
    case 'date':
      return (
        <Field id={id} label={field.label} optional={optional} error={error}>
          <input id={id} type="date" value={text} onInput={onText} {...aria} />
        </Field>
      );
    case 'singlevaluelist':
      if (field.values.length > RADIOS_MAX) {
        return (
          <Field id={id} label={field.label} optional={optional} error={error}>
            <select id={id} value={text} onChange={onText} {...aria}>
              <option value="">Choisissez</option>
              {field.values.map((v) => (
                <option key={v.key} value={v.key}>
                  {v.name}
                </option>
              ))}
            </select>
          </Field>
        );
      }
      return (
        <Group id={id} legend={field.label} optional={optional} error={error}>
          {field.values.map((v, i) => (
            <div class="check" key={v.key}>
              <input id={`${id}-${i}`} type="radio" name={id} value={v.key} checked={text === v.key} onChange={() => onChange(v.key)} />
              <label for={`${id}-${i}`}>{v.name}</label>
            </div>
          ))}
        </Group>
      );
    case 'multivaluelist': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <Group id={id} legend={field.label} optional={optional} hint="Cochez tout ce qui convient." error={error}>
          {field.values.map((v, i) => (
            <div class="check" key={v.key}>
              <input
                id={`${id}-${i}`}
                type="checkbox"
                value={v.key}
                checked={chosen.includes(v.key)}
                onChange={(e) => {
                  const on = (e.target as HTMLInputElement).checked;
                  // In the order of the type's choices, whatever the order of the taps.
                  onChange(field.values.map((x) => x.key).filter((k) => (k === v.key ? on : chosen.includes(k))));
                }}
              />
              <label for={`${id}-${i}`}>{v.name}</label>
            </div>
          ))}
        </Group>
      );
    }
    default:
      return (
        <Field id={id} label={field.label} optional={optional} error={error}>
          <input id={id} type="text" maxLength={200} value={text} onInput={onText} {...aria} />
        </Field>
      );
  }
}

/** A position: the device's (with its accuracy in metres), or one chosen on the map (`accuracy` null). */
export interface Located {
  latitude: number;
  longitude: number;
  accuracy: number | null;
}

type Locating = { step: 'idle' } | { step: 'locating' } | { step: 'failed'; message: string };

const DENIED = `Vous n'avez pas autorisé la localisation${NBSP}: tapez l’adresse ou le lieu ci-dessous.`;
const UNAVAILABLE = `Votre position n'a pas pu être déterminée${NBSP}: tapez l’adresse ou le lieu ci-dessous.`;

/**
 * Where it is: the device's position on a tap (never before), an address typed, and a map only where the operator
 * set a tile server (nothing is fetched from elsewhere otherwise). `area` is where the map opens when the device's
 * position is not known (the point, the place or the commune).
 */
export function PositionInput(props: {
  optional: boolean;
  error?: string;
  position: Located | null;
  address: string;
  area: LatLon | null;
  onPosition: (position: Located | null) => void;
  onAddress: (address: string) => void;
}) {
  const { optional, error, position, address, area, onPosition, onAddress } = props;
  const [state, setState] = useState<Locating>({ step: 'idle' });
  // A failure to load it is no map: the form works without one.
  const map = useResource('requests-config', () => get<RequestsConfig>('/public/requests/config')).data?.map ?? null;
  const live = useRef(true);
  useEffect(
    () => () => {
      live.current = false;
    },
    [],
  );
  const locate = async () => {
    setState({ step: 'locating' });
    try {
      const { coords } = await currentPosition();
      if (!live.current) return;
      onPosition({ latitude: coords.latitude, longitude: coords.longitude, accuracy: coords.accuracy });
      setState({ step: 'idle' });
    } catch (err) {
      if (live.current) setState({ step: 'failed', message: wasDenied(err) ? DENIED : UNAVAILABLE });
    }
  };
  const found = position !== null && position.accuracy !== null ? position : null;
  const chosen = position !== null && position.accuracy === null;
  const clear = (
    <button type="button" class="link-button" onClick={() => onPosition(null)}>
      Effacer la position
    </button>
  );
  // The map opens on the device's position once found, else where the form points, and stays where the pin is put.
  const focus = found ?? (chosen ? null : area);
  // What a tap on the map changes is said below it, so that the map never moves under the finger.
  return (
    <Group id="report-position" legend="Où est-ce ?" optional={optional} hint="Votre position, ou l’adresse ou le lieu." error={error}>
      {canLocate() && (
        <div class="locate">
          <button type="button" class="button secondary" onClick={locate} disabled={state.step === 'locating'}>
            Me localiser
          </button>
        </div>
      )}
      {map && (focus ?? position) && (
        <PositionMap map={map} focus={focus} pin={position} onPin={(p) => onPosition({ ...p, accuracy: null })} />
      )}
      {(position || state.step !== 'idle') && (
        <div class="locate">
          {found && (
            <p class="success" role="status">
              Position relevée, à {Math.max(1, Math.round(found.accuracy ?? 0))}{NBSP}m près. {clear}
            </p>
          )}
          {/* Said by the map's own live region: not a second time here. */}
          {chosen && <p class="success">Position choisie sur la carte. {clear}</p>}
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
        </div>
      )}
      <label for="report-address">Adresse ou lieu</label>
      <input
        id="report-address"
        type="text"
        autocomplete="street-address"
        maxLength={300}
        placeholder={`Par exemple${NBSP}: 12 rue de Siam`}
        value={address}
        aria-invalid={invalid(error)}
        aria-describedby={describedBy('report-position', true, error)}
        onInput={(e) => onAddress((e.target as HTMLInputElement).value)}
      />
    </Group>
  );
}

export interface AttachedPhoto {
  id: string;
  name: string;
}

/** Photos, each uploaded as soon as it is chosen (`POST /public/requests/photos`); their ids go with the request. */
export function PhotoInput(props: {
  optional: boolean;
  error?: string;
  photos: AttachedPhoto[];
  onPhotos: (photos: AttachedPhoto[]) => void;
  onBusy: (busy: boolean) => void;
  onError: (message: string | null) => void;
}) {
  const { optional, error, photos, onPhotos, onBusy, onError } = props;
  const [uploading, setUploading] = useState(false);
  const id = 'report-photo';
  const choose = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    onError(null);
    if (file.size > PHOTO_MAX_BYTES) {
      onError(`Cette photo dépasse 10${NBSP}Mo${NBSP}: choisissez-en une plus légère.`);
      input.value = '';
      return;
    }
    setUploading(true);
    onBusy(true);
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      const { id: photoId } = await upload<{ id: string }>('/public/requests/photos', form);
      onPhotos([...photos, { id: photoId, name: file.name }]);
    } catch (err) {
      onError(`La photo n’a pas été envoyée. ${messageOf(err)}`);
    } finally {
      // The same file may be chosen again after a failure.
      input.value = '';
      setUploading(false);
      onBusy(false);
    }
  };
  const full = photos.length >= PHOTOS_MAX;
  return (
    <div class={error ? 'field has-error' : 'field'}>
      <label for={id}>
        {photos.length ? 'Ajouter une photo' : 'Photo'}
        <Optional optional={optional} />
      </label>
      <p id={`${id}-hint`} class="hint muted">
        JPEG, PNG ou WebP, 10{NBSP}Mo au plus, {PHOTOS_MAX} photos au plus. Elle n’est visible que du service.
      </p>
      {error && (
        <p id={`${id}-error`} class="field-error" role="alert">
          <span class="visually-hidden">Erreur{NBSP}: </span>
          {error}
        </p>
      )}
      <input
        id={id}
        type="file"
        accept="image/*"
        capture="environment"
        disabled={uploading || full}
        aria-describedby={describedBy(id, true, error)}
        aria-invalid={invalid(error)}
        onChange={(e) => void choose(e.target as HTMLInputElement)}
      />
      <p class="photo-status" aria-live="polite">
        {uploading ? 'Envoi de la photo…' : photos.length ? `${photos.length} photo${photos.length > 1 ? 's' : ''} jointe${photos.length > 1 ? 's' : ''}.` : ''}
      </p>
      {photos.length > 0 && (
        <ul class="photos" aria-label="Photos jointes">
          {photos.map((p, i) => (
            <li key={p.id}>
              <span class="photo-name">{p.name || `Photo ${i + 1}`}</span>{' '}
              <button type="button" class="link-button" onClick={() => onPhotos(photos.filter((x) => x !== p))}>
                Retirer<span class="visually-hidden"> la photo {p.name || i + 1}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** « 12 sur 2 000 caractères ». */
export function characterCount(n: number): string {
  return `${n.toLocaleString('fr-FR').replace(/\s/g, NNBSP)} sur 2${NNBSP}000 caractère${n > 1 ? 's' : ''}`;
}
