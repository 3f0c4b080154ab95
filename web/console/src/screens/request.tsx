// A resident's request (docs/console.md, Demandes): what the resident said (type, place, day, answers, photos, where
// on the city's plan), its history and internal notes, and its handling: status, assignee, a public reply or an
// internal note, and its erasure for a resident who asks to be forgotten. Its own `request` events (the requests'
// stream) read it again, as do the agent's own changes.
import { Fragment, type ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, getAll, request, type Answer } from '../api.ts';
import type { CannedReply } from '../chat-types.ts';
import { frenchDate } from '../french.ts';
import { listenTo, REQUEST_EVENTS } from '../live.ts';
import { refreshRequestCounts } from '../request-counts.ts';
import type { ScreenProps } from '../screens.ts';
import type { AdminRequest, AdminRequestType } from '../types.ts';
import { Breadcrumbs, Loaded, Notices, Problem, Title, useResource } from '../ui.tsx';
import { AssigneeEditor, StatusEditor } from '../requests/request-handling.tsx';
import { RequestPhotos } from '../requests/request-photos.tsx';
import { RequestPosition } from '../requests/request-position.tsx';
import { ReplyForm } from '../requests/request-reply.tsx';
import { RequestStatusTag } from '../requests/request-status.tsx';
import { REQUEST_STATUS_LABELS, attributeText, frenchInstant } from '../requests/request-text.ts';
import { navigate } from '../../../shared/router.tsx';
import '../requests/requests.css';

interface Context {
  type: AdminRequestType | null;
  canned: CannedReply[];
}

/** What the request's page reads beside it, once per request: its type's questions, the group's canned replies. */
async function loadContext(r: Pick<AdminRequest, 'cityGroupId' | 'typeCode'>): Promise<Context> {
  const [types, canned] = await Promise.all([
    getAll<AdminRequestType>(`/admin/city-groups/${r.cityGroupId}/request-types`).catch(() => []),
    // The canned replies need CHAT_CONVERSATIONS: without it, none are offered.
    getAll<CannedReply>(`/admin/city-groups/${r.cityGroupId}/canned-replies`).catch(() => []),
  ]);
  return { type: types.find((t) => t.code === r.typeCode) ?? null, canned };
}

export default function RequestScreen({ params }: ScreenProps) {
  const id = params.requestId;
  const url = `/admin/requests/${id}`;
  const details = useResource(`request:${id}`, () => request<AdminRequest>('GET', url));
  const r = details.data?.data ?? null;
  const context = useResource(r ? `request-context:${r.cityGroupId}:${r.typeCode}` : null, () => loadContext(r!));
  const [status, setStatus] = useState<string | null>(null);
  const [problem, setProblem] = useState<unknown>(null);

  /**
   * The agent changed the request (through a form, or a reply): the page holds the request as the server answered the
   * change, with its new version, at once (an erasure clicked right after it must not meet a false conflict), and the
   * forms that hold nothing of the agent's follow it.
   */
  const changed = (said: string | null, saved: Answer<AdminRequest>) => {
    if (said) setStatus(said);
    setProblem(null);
    details.replace(saved);
    refreshRequestCounts();
  };

  useEffect(
    () =>
      listenTo(REQUEST_EVENTS, ({ event, data }) => {
        // Read once for the page and its forms, which follow what it reads.
        if (event === 'reset' || (event === 'request' && (data as { id: string }).id === id)) details.reload();
      }),
    [id],
  );

  const erase = async (current: AdminRequest, etag: string | null) => {
    if (!confirm(`Effacer la demande ${current.reference}, ses photos et son historique\u202f? Rien ne pourra être récupéré.`)) return;
    setStatus(null);
    setProblem(null);
    try {
      await request<null>('DELETE', url, { ifMatch: etag });
      refreshRequestCounts();
      navigate(`/console/demandes?efface=${encodeURIComponent(current.reference)}`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 412) {
        setProblem(new ApiError('La demande a changé depuis son affichage\u00a0: elle est rechargée, vérifiez-la avant de l’effacer.', 412));
        details.reload();
      } else setProblem(err);
    }
  };

  return (
    <Loaded resource={details} what="de la demande">
      {({ data: r, etag }) => (
        <section>
          <Breadcrumbs items={[{ href: '/console/demandes', label: 'Demandes' }]} />
          <Title text={`Demande ${r.reference}`}>
            Demande {r.reference}&nbsp;: {r.typeName}
          </Title>
          <p>
            <RequestStatusTag request={r} /> Reçue le {frenchInstant(r.createdAt)}
            {r.status === 'PLANIFIEE' && r.plannedFor ? ` · intervention prévue le ${frenchDate(r.plannedFor)}` : ''}
            {r.closedAt ? ` · close le ${frenchInstant(r.closedAt)}` : ` · à traiter avant le ${frenchInstant(r.dueAt)}`}
          </p>
          <Notices status={status} problem={problem} />
          <div class="two">
            <div>
              <h2>Ce que l’habitant a signalé</h2>
              <Facts request={r} context={context.data} />
              {r.photos.length > 0 && (
                <>
                  <h2>Photos</h2>
                  <RequestPhotos request={r} />
                </>
              )}
              {r.latitude !== null && r.longitude !== null && (
                <>
                  <h2>Position</h2>
                  <RequestPosition request={r} />
                </>
              )}
            </div>
            <div>
              <h2 id="request-status-title">Statut</h2>
              <StatusEditor key={`status:${id}`} answer={details.data!} onChanged={changed} />
              <h2 id="request-assignee-title">Attribution</h2>
              <AssigneeEditor key={`assignee:${id}`} answer={details.data!} onChanged={changed} />
            </div>
          </div>
          <ReplyForm requestId={id} canned={context.data?.canned ?? []} onSent={changed} />
          <div class="two">
            <section aria-labelledby="request-history-title">
              <h2 id="request-history-title">Historique vu par l’habitant</h2>
              <ol class="timeline">
                {r.updates.map((u, i) => (
                  <li key={i}>
                    <span class="who">
                      {u.status ? REQUEST_STATUS_LABELS[u.status] : 'Réponse publique'}, le {frenchInstant(u.at)}
                    </span>
                    {u.message && <p>{u.message}</p>}
                  </li>
                ))}
              </ol>
            </section>
            <section aria-labelledby="request-notes-title">
              <h2 id="request-notes-title">Notes internes</h2>
              {r.notes.length === 0 ? (
                <p class="muted">Aucune note.</p>
              ) : (
                <ol class="timeline">
                  {r.notes.map((n, i) => (
                    <li key={i} class="note">
                      <span class="who">
                        {n.author ? n.author.name : 'Agent supprimé'}, le {frenchInstant(n.at)}
                      </span>
                      <p>{n.message}</p>
                    </li>
                  ))}
                </ol>
              )}
            </section>
          </div>
          <section class="card" aria-labelledby="request-erase-title">
            <h2 id="request-erase-title">Effacer la demande</h2>
            <p>
              Pour un habitant qui demande à être oublié&nbsp;: la demande, ses photos, son historique et ses notes sont effacés pour de bon. Les statistiques
              n’en gardent que le compte.
            </p>
            {problem !== null && <Problem error={problem} />}
            <button type="button" class="button danger" onClick={() => void erase(r, etag)}>
              Effacer la demande
            </button>
          </section>
        </section>
      )}
    </Loaded>
  );
}

function Facts({ request: r, context }: { request: AdminRequest; context: Context | null }) {
  const fields = context?.type?.fields ?? [];
  const answered = Object.keys(r.attributes);
  // The type's questions in its order, then answers to questions it no longer asks (by their code).
  const codes = [...fields.map((f) => f.code).filter((c) => answered.includes(c)), ...answered.filter((c) => !fields.some((f) => f.code === c))];
  const rows: [string, ComponentChildren][] = [
    ['Type', r.typeName],
    ['Commune', r.cityName],
    ...(r.placeName ? [['Secteur', r.placeName] as [string, string]] : []),
    ...(r.wasteTypeId ? [['Type de déchets', r.wasteTypeName ?? 'Un type de déchets de la commune'] as [string, string]] : []),
    ...(r.date ? [['Jour concerné', frenchDate(r.date)] as [string, string]] : []),
    ...(r.recyclingPointId ? [['Point d’apport', r.recyclingPointName ?? 'Un point d’apport de la commune'] as [string, string]] : []),
    ...(r.address ? [['Adresse', r.address] as [string, string]] : []),
    ['Description', r.description ?? 'Effacée (durée de conservation passée)'],
    ...codes.map((code): [string, string] => {
      const field = fields.find((f) => f.code === code);
      return [field?.label ?? code, attributeText(field, r.attributes[code], (d) => frenchDate(d))];
    }),
    ['E-mail', r.email ? <a href={`mailto:${r.email}`}>{r.email}</a> : 'Aucun (l’habitant suit la demande dans l’application)'],
    ['Suivie par', `${r.followers}\u00a0appareil${r.followers > 1 ? 's' : ''}`],
    ['Attribuée à', r.assignedToName ?? 'Personne'],
  ];
  return (
    <dl class="request-facts">
      {rows.map(([label, value]) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
