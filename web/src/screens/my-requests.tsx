// « Mes demandes » (/mes-demandes and /mes-demandes/:requestId): the requests this device filed or follows, newest
// first, each with its status in words and its updates oldest first; kept current while the screen is open
// (the server's stream of changes when it offers one, a reload when the tab comes back; docs/api.md, resident requests).
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, messageOf } from '../api.ts';
import { Link } from '../../shared/router.tsx';
import { dateAndTime, longDay, shortDate } from '../text.ts';
import type { City, ResidentRequest } from '../types.ts';
import {
  BULKY_PICKUP, cancelBooking, cancellable, deadlineText, isOpen, myRequest, myRequests, reportPath, requestPath, STATUS_LABEL, statusText,
  useRequestUpdates,
} from '../requests.ts';
import { Loading, Problem, Title, useResource } from '../ui.tsx';

const NBSP = '\u00a0';

function StatusBadge({ request }: { request: ResidentRequest }) {
  return <span class={`status status-${request.status.toLowerCase()}`}>{statusText(request)}</span>;
}

/** The updates, oldest first: « 23 novembre 2026 à 14 h · Reçue », and the service's words when there are some. */
function Updates({ request }: { request: ResidentRequest }) {
  if (request.updates.length === 0) return null;
  return (
    <ol class="updates" aria-label={`Suivi de la demande ${request.reference}`}>
      {request.updates.map((u, i) => (
        <li key={`${u.at}-${i}`}>
          <time dateTime={u.at}>{dateAndTime(u.at)}</time>
          {u.status && <strong> · {STATUS_LABEL[u.status]}</strong>}
          {u.message && <p class="update-message">{u.message}</p>}
        </li>
      ))}
    </ol>
  );
}

/**
 * « Annuler ce rendez-vous » for a standing bulky-waste booking, until noon the day before: asked once more before it
 * goes, the place given back to the day. The server decides (past its deadline: 409, its message shown).
 */
function CancelBooking({ request, onCancelled }: { request: ResidentRequest; onCancelled: (request: ResidentRequest) => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const ask = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    // The focus follows the question: onto « Oui, annuler » when it appears, back to « Annuler » when it is withdrawn.
    if (asking) confirm.current?.focus();
    else if (asked.current) ask.current?.focus();
    asked.current = asking;
  }, [asking]);
  if (!cancellable(request) || !request.plannedFor) return null;
  const day = request.plannedFor.slice(0, 10);
  const questionId = `cancel-question-${request.id}`;

  const cancel = async () => {
    setBusy(true);
    setError(null);
    try {
      onCancelled(await cancelBooking(request.id));
    } catch (err) {
      setError(messageOf(err));
      setAsking(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="cancel-booking screen-only">
      <p class="muted">Annulable jusqu’au {deadlineText(day)}.</p>
      {asking ? (
        <div role="group" aria-labelledby={questionId}>
          <p id={questionId}>
            Annuler l’enlèvement du {longDay(day)}{NBSP}? Votre place sera rendue à d’autres habitants.
          </p>
          <p class="actions">
            <button ref={confirm} type="button" class="button danger" disabled={busy} onClick={cancel}>
              Oui, annuler le rendez-vous
            </button>
            <button type="button" class="button secondary" disabled={busy} onClick={() => setAsking(false)}>
              Non, le garder
            </button>
          </p>
        </div>
      ) : (
        <p class="actions">
          <button ref={ask} type="button" class="button secondary" onClick={() => setAsking(true)}>
            Annuler ce rendez-vous<span class="visually-hidden"> {request.reference}</span>
          </button>
        </p>
      )}
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Puts a changed request in its place in the list (a new one, followed from elsewhere, on top). */
function merged(list: ResidentRequest[], changed: ResidentRequest): ResidentRequest[] {
  return list.some((r) => r.id === changed.id) ? list.map((r) => (r.id === changed.id ? changed : r)) : [changed, ...list];
}

export function MyRequests() {
  const loaded = useResource('my-requests', myRequests);
  // What the stream brought since the last load (`from`: that load's list); a new load replaces it.
  const [live, setLive] = useState<{ from: ResidentRequest[] | null; list: ResidentRequest[] } | null>(null);
  const apply = (request: ResidentRequest) =>
    setLive((l) => ({ from: loaded.data, list: merged(l && l.from === loaded.data ? l.list : (loaded.data ?? []), request) }));
  useRequestUpdates(apply, loaded.reload);
  const requests = live && live.from === loaded.data ? live.list : loaded.data;

  return (
    <section>
      <Title text="Mes demandes">Mes demandes</Title>
      <p class="lead">Les demandes envoyées ou suivies depuis cet appareil, les plus récentes d’abord.</p>
      <p class="actions screen-only">
        <Link class="button" href={reportPath()}>
          Signaler un problème
        </Link>
      </p>
      {loaded.loading && !requests ? (
        <Loading what="de vos demandes" />
      ) : loaded.error != null && !requests ? (
        <Problem error={loaded.error} retry={loaded.reload} />
      ) : !requests || requests.length === 0 ? (
        <p class="card">Vous n’avez encore fait aucune demande depuis cet appareil.</p>
      ) : (
        <ul class="requests" aria-label="Vos demandes">
          {requests.map((r) => (
            <li key={r.id} class={`card request ${isOpen(r.status) ? 'open' : 'closed'}`}>
              <h2>
                <Link href={requestPath(r.id)}>
                  {r.typeName}
                  <span class="visually-hidden">, demande {r.reference}</span>
                </Link>
              </h2>
              <p class="request-meta">
                <StatusBadge request={r} /> <span class="muted">N°{NBSP}{r.reference} · envoyée le {shortDate(r.createdAt)}</span>
              </p>
              <Updates request={r} />
              <CancelBooking request={r} onCancelled={apply} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function MyRequest({ requestId }: { requestId: string }) {
  const loaded = useResource(`my-request:${requestId}`, () => myRequest(requestId));
  const [live, setLive] = useState<ResidentRequest | null>(null);
  useRequestUpdates((request) => {
    if (request.id === requestId) setLive(request);
  }, () => {
    setLive(null);
    loaded.reload();
  });
  const request = live && (!loaded.data || live.updatedAt >= loaded.data.updatedAt) ? live : loaded.data;
  const city = useResource(request && `city:${request.cityId}`, () => get<City>(`/public/cities/${request!.cityId}`));

  if (loaded.loading && !request) return <Loading what="de votre demande" />;
  if (!request) return <Problem error={loaded.error} retry={loaded.reload} back={{ href: '/mes-demandes', label: 'Mes demandes' }} />;
  const c = city.data;
  const place = c?.wasteCollectionPlaces.find((p) => p.id === request.placeId)?.name;
  const wasteType = c?.wasteTypes.find((w) => w.id === request.wasteTypeId)?.name;
  const point = c?.recyclingPoints.find((p) => p.id === request.recyclingPointId)?.name;
  const details: [string, string][] = [
    ['Numéro', request.reference],
    ['Envoyée le', dateAndTime(request.createdAt)],
    ...(c ? ([['Commune', c.name]] as [string, string][]) : []),
    ...(place ? ([['Secteur', place]] as [string, string][]) : []),
    ...(wasteType ? ([['Bac', wasteType]] as [string, string][]) : []),
    ...(request.date ? ([['Jour', longDay(request.date)]] as [string, string][]) : []),
    ...(point ? ([['Point d’apport', point]] as [string, string][]) : []),
    ...(request.address ? ([['Adresse', request.address]] as [string, string][]) : []),
    ...(request.typeCode === BULKY_PICKUP && typeof request.attributes.items === 'string' ? ([['Objets', request.attributes.items]] as [string, string][]) : []),
    ...(request.latitude !== null && request.longitude !== null ? ([['Position', 'relevée par l’appareil']] as [string, string][]) : []),
    ...(request.photoCount > 0 ? ([['Photos', `${request.photoCount} jointe${request.photoCount > 1 ? 's' : ''}`]] as [string, string][]) : []),
  ];
  return (
    <section>
      <Title text={`Demande ${request.reference}`}>
        {request.typeName} <span class="subtitle">Demande {request.reference}</span>
      </Title>
      <p class="request-meta">
        <StatusBadge request={request} />
      </p>
      <CancelBooking request={request} onCancelled={setLive} />
      <dl class="card request-details">
        {details.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {request.description !== null && (
        <>
          <h2>Votre description</h2>
          <p class="card request-description">{request.description}</p>
        </>
      )}
      <h2>Suivi</h2>
      <Updates request={request} />
      {!isOpen(request.status) && <p class="muted">Cette demande est close{NBSP}: pour un nouveau problème, faites une nouvelle demande.</p>}
      <p>
        <Link href="/mes-demandes">Toutes mes demandes</Link>
      </p>
    </section>
  );
}
