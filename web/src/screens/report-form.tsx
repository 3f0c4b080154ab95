// The form of one request type, drawn from its definition (docs/api.md, resident requests): the place, waste type,
// day, point, position and photos it asks for, the description, an e-mail for the follow-up, and its own questions.
// A bulky-waste pickup (`encombrants`) is booked through the same form: a day with room on a small calendar, the
// address found as on the commune screen (its place with it), what is put out and the e-mail, both required.
// The server judges it: its refusal is shown at the field it names, the focus moved there, a summary on top.
import { useRef, useState } from 'preact/hooks';
import { ApiError, getLive, messageOf, postForStatus } from '../api.ts';
import { Link } from '../../shared/router.tsx';
import { chosenPlace, deviceId } from '../store.ts';
import { todayInFrance } from '../text.ts';
import type { City, PickupDay, RequestType, ResidentRequest } from '../types.ts';
import {
  BULKY_PICKUP, deadlineText, filedSentence, FULL_POINT, MISSED_COLLECTION, reportPath, requestPath, type ReportPrefill,
} from '../requests.ts';
import { longDay } from '../text.ts';
import { Loading, Problem, Title, useResource } from '../ui.tsx';
import { AddressBox } from './address.tsx';
import { PickupDayPicker } from './pickup-days.tsx';
import {
  AttributeInput, attributeId, characterCount, DESCRIPTION_MAX, describedBy, Field, invalid, PhotoInput, PositionInput, SelectField,
  type AttachedPhoto, type Located,
} from './report-inputs.tsx';
import { whereToLook } from './report-map.tsx';

const NBSP = '\u00a0';

type Answer = string | string[];

/** A refusal as the form shows it: at one of its inputs (`key`), or above it (`form`). */
interface FormError {
  key: string;
  message: string;
}

/** The booking's day, asked on its calendar rather than as one of the type's questions. */
const SLOT_DATE = 'slotDate';
const SLOT_KEY = `attributes.${SLOT_DATE}`;

/** Which input a field named by the server is: `photoIds[1]` is the photo input, `latitude` the position… */
function inputKey(field: string | null, type: RequestType): string {
  if (!field) return 'form';
  if (type.code === BULKY_PICKUP && (field === 'address' || field === 'placeId')) return 'address';
  if (type.code === BULKY_PICKUP && field.startsWith(SLOT_KEY)) return SLOT_KEY;
  if (['placeId', 'wasteTypeId', 'date', 'recyclingPointId', 'description', 'email'].includes(field)) return field;
  if (field === 'latitude' || field === 'longitude' || field === 'address') return 'position';
  if (field.startsWith('photoIds')) return 'photo';
  const code = /^attributes\.([^.[]+)/.exec(field)?.[1];
  if (code && type.fields.some((f) => f.code === code)) return `attributes.${code}`;
  return 'form';
}

/** The element that takes the focus for an input's error (a list of choices: the one chosen, else its first choice). */
function focusTarget(key: string, type: RequestType): HTMLElement | null {
  if (key === SLOT_KEY && type.code === BULKY_PICKUP) {
    const picker = document.getElementById(attributeId(SLOT_DATE));
    return picker?.querySelector<HTMLElement>('input:checked:not(:disabled)') ?? picker?.querySelector<HTMLElement>('input:not(:disabled)') ?? picker ?? null;
  }
  if (key.startsWith('attributes.')) {
    const field = type.fields.find((f) => `attributes.${f.code}` === key);
    if (!field) return null;
    const id = attributeId(field.code);
    return document.getElementById(id) instanceof HTMLFieldSetElement ? document.getElementById(`${id}-0`) : document.getElementById(id);
  }
  const ids: Record<string, string> = {
    placeId: 'report-place', wasteTypeId: 'report-waste-type', date: 'report-date', recyclingPointId: 'report-point',
    position: 'report-address', photo: 'report-photo', description: 'report-description', email: 'report-email', address: 'booking-address',
  };
  return ids[key] ? document.getElementById(ids[key]) : null;
}

interface Filed {
  request: ResidentRequest;
  joined: boolean;
}

export function ReportForm({ city, type, prefill }: { city: City; type: RequestType; prefill: ReportPrefill }) {
  const booking = type.code === BULKY_PICKUP;
  // A booking's days, straight from the network (places go as others book); loaded again after a 409.
  const days = useResource(booking ? `pickup-days:${city.id}` : null, () => getLive<PickupDay[]>(`/public/cities/${city.id}/bulky-pickups`));
  const [slotDate, setSlotDate] = useState('');
  const known = <T extends { id: string }>(list: T[], id: string | undefined) => (id && list.some((x) => x.id === id) ? id : '');
  // The place the address names, else the resident's own (the calendar they chose) when it is of this city.
  const [placeId, setPlaceId] = useState(() => {
    const mine = chosenPlace();
    return known(city.wasteCollectionPlaces, prefill.placeId ?? (mine?.cityId === city.id ? mine.placeId : undefined));
  });
  const [wasteTypeId, setWasteTypeId] = useState(() => known(city.wasteTypes, prefill.wasteTypeId));
  const [date, setDate] = useState(() => (prefill.date && /^\d{4}-\d{2}-\d{2}$/.test(prefill.date) ? prefill.date : ''));
  const [pointId, setPointId] = useState(() => known(city.recyclingPoints, prefill.recyclingPointId));
  const [position, setPosition] = useState<Located | null>(null);
  const [address, setAddress] = useState('');
  const [photos, setPhotos] = useState<AttachedPhoto[]>([]);
  const [photoBusy, setPhotoBusy] = useState(false);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const [email, setEmail] = useState('');
  const [answers, setAnswers] = useState<Record<string, Answer>>({});
  const [errors, setErrors] = useState<FormError[]>([]);
  const [sending, setSending] = useState(false);
  const [filed, setFiled] = useState<Filed | null>(null);
  const summary = useRef<HTMLDivElement>(null);

  const asks = {
    // A booking's place comes with the address chosen in the address box.
    place: type.place !== 'NONE' && !booking,
    wasteType: type.wasteType !== 'NONE',
    date: type.code === MISSED_COLLECTION,
    point: type.code === FULL_POINT,
    position: type.position !== 'NONE' && !booking,
    photo: type.photo !== 'NONE',
  };
  const errorOf = (key: string) => errors.find((e) => e.key === key)?.message ?? (key === 'photo' ? (photoError ?? undefined) : undefined);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (sending || photoBusy) return;
    setSending(true);
    const attributes: Record<string, unknown> = booking && slotDate ? { [SLOT_DATE]: slotDate } : {};
    for (const field of type.fields) {
      if (booking && field.code === SLOT_DATE) continue;
      const answer = answers[field.code];
      if (answer === undefined || answer === '' || (Array.isArray(answer) && answer.length === 0)) continue;
      attributes[field.code] = field.datatype === 'number' && typeof answer === 'string' ? Number(answer.replace(',', '.')) : answer;
    }
    const body = {
      deviceId: deviceId(),
      cityId: city.id,
      typeCode: type.code,
      placeId: asks.place || booking ? placeId || null : null,
      wasteTypeId: asks.wasteType ? wasteTypeId || null : null,
      date: asks.date ? date || null : null,
      recyclingPointId: asks.point ? pointId || null : null,
      latitude: asks.position && position ? position.latitude : null,
      longitude: asks.position && position ? position.longitude : null,
      address: (asks.position || booking) && address.trim() ? address.trim() : null,
      description,
      email: email.trim() || null,
      attributes,
      photoIds: asks.photo ? photos.map((p) => p.id) : [],
    };
    try {
      const { status, data } = await postForStatus<ResidentRequest>('/public/requests', body);
      setErrors([]);
      setFiled({ request: data, joined: status === 200 });
    } catch (err) {
      // A day that filled up meanwhile (409): said at the calendar, whose places are read again.
      const full = booking && err instanceof ApiError && err.status === 409;
      const key = full ? SLOT_KEY : err instanceof ApiError && err.status === 400 ? inputKey(err.field, type) : 'form';
      if (full) {
        setSlotDate('');
        days.reload();
      }
      setErrors([{ key, message: messageOf(err) }]);
      // After the render that shows it: the input at fault takes the focus, else the summary.
      requestAnimationFrame(() => (focusTarget(key, type) ?? summary.current)?.focus());
    } finally {
      setSending(false);
    }
  };

  if (filed) return booking ? <BookedScreen request={filed.request} /> : <FiledScreen filed={filed} hadEmail={email.trim() !== ''} />;
  if (booking && days.loading && !days.data) return <Loading what="des jours d’enlèvement" />;
  if (booking && !days.data) return <Problem error={days.error} retry={days.reload} />;
  const openDays = days.data ?? [];
  const title = booking ? 'Prendre rendez-vous pour des encombrants' : type.name;

  const places = city.wasteCollectionPlaces.map((p) => ({ id: p.id, name: p.name }));
  const wasteTypes = city.wasteTypes.map((w) => ({ id: w.id, name: w.name }));
  const points = city.recyclingPoints.map((p) => ({ id: p.id, name: p.name }));
  const descriptionError = errorOf('description');

  return (
    <section>
      <Title text={title}>
        {title} <span class="subtitle">{city.name}</span>
      </Title>
      {type.description && <p class="lead">{type.description}</p>}
      <p class="screen-only">
        <Link href={reportPath({ cityId: city.id, placeId: prefill.placeId, recyclingPointId: prefill.recyclingPointId })}>Choisir un autre motif</Link>
      </p>
      {errors.length > 0 && (
        <div ref={summary} class="problem error-summary" role="alert" tabIndex={-1} aria-labelledby="report-errors-title">
          <h2 id="report-errors-title">Votre demande n’a pas été envoyée</h2>
          <ul>
            {errors.map((e) => (
              <li key={e.key}>
                {e.key === 'form' ? (
                  e.message
                ) : (
                  <a
                    href={`#${focusTarget(e.key, type)?.id ?? ''}`}
                    onClick={(event) => {
                      event.preventDefault();
                      focusTarget(e.key, type)?.focus();
                    }}
                  >
                    {e.message}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {booking && openDays.length === 0 ? (
        <p class="card" role="status">
          Aucun jour d’enlèvement n’est ouvert à la réservation en ce moment à {city.name}. Revenez plus tard, ou contactez le service de collecte.
        </p>
      ) : (
      <form class="card report-form" noValidate onSubmit={submit} aria-labelledby="report-form-title">
        <h2 id="report-form-title" class="visually-hidden">
          {booking ? 'Votre rendez-vous' : 'Votre demande'}
        </h2>
        <p class="muted">Les champs marqués «{NBSP}facultatif{NBSP}» peuvent rester vides.</p>
        {booking && (
          <>
            {openDays.every((d) => d.remaining === 0) && (
              <p class="notice" role="status">
                Tous les jours proposés sont complets. De nouveaux jours peuvent s’ouvrir{NBSP}: revenez plus tard.
              </p>
            )}
            <PickupDayPicker
              id={attributeId(SLOT_DATE)}
              legend={type.fields.find((f) => f.code === SLOT_DATE)?.label ?? 'Jour d’enlèvement'}
              days={openDays}
              value={slotDate}
              error={errorOf(SLOT_KEY)}
              onChange={setSlotDate}
            />
            {slotDate && (
              <p class="chosen-day" role="status">
                Enlèvement le {longDay(slotDate)}, annulable jusqu’au {deadlineText(slotDate)}.
              </p>
            )}
            <AddressBox
              cityId={city.id}
              id="booking-address"
              label="L’adresse de l’enlèvement"
              hint="Tapez le numéro et le nom de la rue, puis choisissez l’adresse dans la liste."
              error={errorOf('address')}
              onText={(text) => {
                setAddress(text);
                setPlaceId('');
              }}
              onChoose={(c) => {
                setAddress(c.label);
                setPlaceId(c.placeId);
              }}
            />
          </>
        )}
        {asks.place && (
          <SelectField
            id="report-place"
            label="Votre secteur de collecte"
            optional={type.place === 'OPTIONAL'}
            error={errorOf('placeId')}
            value={placeId}
            options={places}
            placeholder="Choisissez votre secteur"
            onChange={setPlaceId}
          />
        )}
        {asks.wasteType && (
          <SelectField
            id="report-waste-type"
            label="Bac ou type de déchets"
            optional={type.wasteType === 'OPTIONAL'}
            error={errorOf('wasteTypeId')}
            value={wasteTypeId}
            options={wasteTypes}
            placeholder="Choisissez"
            onChange={setWasteTypeId}
          />
        )}
        {asks.date && (
          <Field id="report-date" label="Jour de la collecte" hint={`À signaler à partir de midi le jour de la collecte, et pendant 48${NBSP}heures.`} error={errorOf('date')}>
            <input
              id="report-date"
              type="date"
              max={todayInFrance()}
              value={date}
              aria-describedby={describedBy('report-date', true, errorOf('date'))}
              aria-invalid={invalid(errorOf('date'))}
              onInput={(e) => setDate((e.target as HTMLInputElement).value)}
            />
          </Field>
        )}
        {asks.point && (
          <SelectField
            id="report-point"
            label="Point d’apport"
            optional={false}
            error={errorOf('recyclingPointId')}
            value={pointId}
            options={points}
            placeholder="Choisissez le point"
            onChange={setPointId}
          />
        )}
        {asks.position && (
          <PositionInput
            optional={type.position === 'OPTIONAL'}
            error={errorOf('position')}
            position={position}
            address={address}
            area={whereToLook(city, placeId, asks.point ? pointId : '')}
            onPosition={setPosition}
            onAddress={setAddress}
          />
        )}
        {type.fields.filter((field) => !(booking && field.code === SLOT_DATE)).map((field) => (
          <AttributeInput
            key={field.code}
            field={field}
            value={answers[field.code]}
            error={errorOf(`attributes.${field.code}`)}
            onChange={(value) => setAnswers((all) => ({ ...all, [field.code]: value }))}
          />
        ))}
        <Field
          id="report-description"
          label={booking ? 'Où trouver vos objets' : 'Décrivez le problème'}
          hint={booking ? `Par exemple${NBSP}: devant le portail, au pied de l’immeuble côté rue.` : 'Ce qui s’est passé, où exactement, depuis quand.'}
          error={descriptionError}
        >
          <textarea
            id="report-description"
            rows={5}
            maxLength={DESCRIPTION_MAX}
            value={description}
            aria-describedby={[describedBy('report-description', true, descriptionError), 'report-description-count'].join(' ')}
            aria-invalid={invalid(descriptionError)}
            onInput={(e) => setDescription((e.target as HTMLTextAreaElement).value)}
          />
          <p id="report-description-count" class="count muted">
            {characterCount(description.length)}
          </p>
        </Field>
        {asks.photo && (
          <PhotoInput
            optional={type.photo === 'OPTIONAL'}
            error={errorOf('photo')}
            photos={photos}
            onPhotos={setPhotos}
            onBusy={setPhotoBusy}
            onError={setPhotoError}
          />
        )}
        <Field
          id="report-email"
          label="Votre adresse e-mail"
          optional={!booking}
          hint={booking ? 'Pour la confirmation, et un rappel la veille au soir.' : 'Pour recevoir le suivi de votre demande par e-mail.'}
          error={errorOf('email')}
        >
          <input
            id="report-email"
            type="email"
            autocomplete="email"
            inputMode="email"
            maxLength={254}
            value={email}
            aria-describedby={describedBy('report-email', true, errorOf('email'))}
            aria-invalid={invalid(errorOf('email'))}
            onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
          />
        </Field>
        <p class="actions">
          <button type="submit" class="button" disabled={sending || photoBusy}>
            {booking ? 'Réserver ce jour' : 'Envoyer ma demande'}
          </button>
        </p>
        {sending && (
          <p class="loading" role="status">
            <span class="spinner" aria-hidden="true" /> Envoi de votre demande…
          </p>
        )}
      </form>
      )}
    </section>
  );
}

function FiledScreen({ filed, hadEmail }: { filed: Filed; hadEmail: boolean }) {
  const { request, joined } = filed;
  return (
    <section>
      <Title text={joined ? 'Problème déjà signalé' : 'Demande enregistrée'}>{joined ? 'Problème déjà signalé' : 'Demande enregistrée'}</Title>
      <div class="card filed" role="status">
        <p class="success">{filedSentence(request.reference, joined)}</p>
        {!joined && hadEmail && <p>Vous recevrez par e-mail un accusé de réception, puis chaque nouvelle de votre demande.</p>}
        <p>Le service vous répondra{NBSP}: suivez votre demande dans «{NBSP}Mes demandes{NBSP}», sur cet appareil.</p>
      </div>
      <p class="actions">
        <Link class="button" href={requestPath(request.id)}>
          Voir ma demande {request.reference}
        </Link>
        <Link class="button secondary" href="/mes-demandes">
          Mes demandes
        </Link>
      </p>
    </section>
  );
}

/** After a booking: its day, until when it can be cancelled, the reminder. */
function BookedScreen({ request }: { request: ResidentRequest }) {
  const day = request.plannedFor?.slice(0, 10);
  return (
    <section>
      <Title text="Rendez-vous enregistré">Rendez-vous enregistré</Title>
      <div class="card filed" role="status">
        <p class="success">
          {day ? `Vos encombrants seront enlevés le ${longDay(day)}` : 'Votre rendez-vous est enregistré'} (demande {request.reference}).
        </p>
        <p>Vous recevrez par e-mail une confirmation, puis un rappel la veille au soir.</p>
        {day && <p>Vous pouvez annuler ce rendez-vous dans «{NBSP}Mes demandes{NBSP}» jusqu’au {deadlineText(day)}.</p>}
      </div>
      <p class="actions">
        <Link class="button" href={requestPath(request.id)}>
          Voir mon rendez-vous {request.reference}
        </Link>
        <Link class="button secondary" href="/mes-demandes">
          Mes demandes
        </Link>
      </p>
    </section>
  );
}
