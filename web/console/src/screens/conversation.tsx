// One conversation (docs/console.md): its messages, its place and the place's next collections, assign to me, reply
// (canned replies of the group), change its status, open a ticket. Its `conversation` events (GET /chat/events) refetch it: new messages appear live.
import { useEffect, useState } from 'preact/hooks';
import { currentUser, get, getAll, post, request } from '../api.ts';
import {
  STATUS_LABELS, STATUS_TRANSITIONS, frenchMoment, type CannedReply, type ChatMessage, type ConversationDetail, type ConversationStatus,
} from '../chat-types.ts';
import { listen } from '../live.ts';
import type { ScreenProps } from '../screens.ts';
import { Breadcrumbs, Loaded, Problem, Status, Title, useResource } from '../ui.tsx';
import { SelectField, TextArea, TextField } from '../form-fields.tsx';
import { quoted } from '../french.ts';
import { PlaceCollections } from './conversation-place.tsx';

const ROLES: Record<ChatMessage['role'], string> = { user: 'Citoyen', assistant: 'Assistant', agent: 'Agent' };

interface Data {
  conversation: ConversationDetail;
  canned: CannedReply[];
}

async function load(id: string): Promise<Data> {
  const conversation = await get<ConversationDetail>(`/chat/conversations/${id}`);
  const canned = await getAll<CannedReply>(`/admin/city-groups/${conversation.cityGroupId}/canned-replies`).catch(() => []);
  return { conversation, canned };
}

/** The commune and the place the citizen gave, as the conversation carries them (any agent of it reads them). */
const placeText = (c: ConversationDetail): string =>
  c.place ? `${c.cityName}, secteur ${quoted(c.place.name)}` : `${c.cityName}, aucun secteur indiqué`;

export default function Conversation({ params }: ScreenProps) {
  const id = params.conversationId;
  const user = currentUser()!;
  const resource = useResource(id, () => load(id));
  const [text, setText] = useState('');
  const [cannedId, setCannedId] = useState('');
  const [nextStatus, setNextStatus] = useState('');
  const [subject, setSubject] = useState('');
  const [description, setDescription] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(
    () =>
      listen(({ event, data }) => {
        if (event === 'reset' || (event === 'conversation' && (data as { id: string }).id === id)) resource.reload();
      }),
    [id],
  );

  const act = async (what: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      await what();
      setStatus(done);
      resource.reload();
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Loaded resource={resource} what="de la conversation">
      {({ conversation: c, canned }) => {
        const transitions = STATUS_TRANSITIONS[c.status];
        const chosen = (transitions as string[]).includes(nextStatus) ? nextStatus : transitions[0];
        return (
          <section>
            <Breadcrumbs items={[{ href: '/console/conversations', label: 'Conversations' }]} />
            <Title text={`Conversation ${c.devicePseudonym}`}>Conversation avec {c.devicePseudonym}</Title>
            <p>
              Statut&nbsp;: <strong>{STATUS_LABELS[c.status]}</strong> · Attribuée à&nbsp;:{' '}
              <strong>{c.assignedTo === null ? 'personne' : c.assignedTo === user.id ? 'moi' : 'un autre agent'}</strong> · Lieu&nbsp;: {placeText(c)}
            </p>
            {error ? <Problem error={error} /> : null}
            {status && <Status>{status}</Status>}
            <div class="actions">
              {c.assignedTo !== user.id && (
                <button type="button" class="button secondary" disabled={busy} onClick={() => void act(() => post(`/chat/conversations/${id}/assign`, { agentId: user.id }), 'La conversation vous est attribuée.')}>
                  M’attribuer la conversation
                </button>
              )}
            </div>
            {c.place && <PlaceCollections place={c.place} />}

            <h2>Messages</h2>
            <ol class="messages" aria-label="Messages, le plus ancien d’abord">
              {c.messages.map((m) => (
                <li key={m.id} class={m.role}>
                  <span class="who">
                    {ROLES[m.role]}, le {frenchMoment(m.createdAt)}
                  </span>
                  <p>{m.content}</p>
                </li>
              ))}
            </ol>

            {c.status === 'CLOSED' ? (
              <p class="notice">Cette conversation est close&nbsp;: rouvrez-la pour répondre.</p>
            ) : (
              <form
                class="card"
                aria-labelledby="reply-title"
                onSubmit={(e) => {
                  e.preventDefault();
                  void act(() => post(`/chat/conversations/${id}/reply`, { content: text }), 'Réponse envoyée.').then((ok) => ok && (setText(''), setCannedId('')));
                }}
              >
                <h2 id="reply-title">Répondre</h2>
                {canned.length > 0 && (
                  <SelectField
                    label="Réponse type"
                    hint="Remplit la réponse, que vous pouvez modifier avant de l’envoyer."
                    value={cannedId}
                    options={[{ value: '', label: 'Choisir…' }, ...canned.map((r) => ({ value: r.id, label: r.title }))]}
                    onChange={(v) => {
                      setCannedId(v);
                      const reply = canned.find((r) => r.id === v);
                      if (reply) setText(reply.content);
                    }}
                  />
                )}
                <TextArea label="Votre réponse" value={text} onInput={setText} rows={4} />
                <button type="submit" class="button" disabled={busy || !text.trim()}>
                  Envoyer
                </button>
              </form>
            )}

            <form
              class="card"
              aria-labelledby="status-title"
              onSubmit={(e) => {
                e.preventDefault();
                void act(() => request('PATCH', `/chat/conversations/${id}/status`, { body: { status: chosen } }), 'Statut modifié.');
              }}
            >
              <h2 id="status-title">Changer le statut</h2>
              <SelectField
                label="Nouveau statut"
                value={chosen}
                options={transitions.map((s: ConversationStatus) => ({ value: s, label: STATUS_LABELS[s] }))}
                onChange={setNextStatus}
              />
              <button type="submit" class="button secondary" disabled={busy}>
                Changer le statut
              </button>
            </form>

            <form
              class="card"
              aria-labelledby="ticket-title"
              onSubmit={(e) => {
                e.preventDefault();
                void act(() => post(`/chat/conversations/${id}/ticket`, { subject, description }), 'Ticket créé.').then((ok) => ok && (setSubject(''), setDescription('')));
              }}
            >
              <h2 id="ticket-title">Tickets</h2>
              {c.tickets.length === 0 ? (
                <p class="muted">Aucun ticket.</p>
              ) : (
                <ul>
                  {c.tickets.map((t) => (
                    <li key={t.id}>
                      <strong>{t.subject}</strong> ({t.status === 'OPEN' ? 'ouvert' : 'fermé'}, {frenchMoment(t.createdAt)})&nbsp;: {t.description}
                    </li>
                  ))}
                </ul>
              )}
              <TextField label="Objet du ticket" value={subject} onInput={setSubject} maxLength={200} />
              <TextArea label="Description du ticket" value={description} onInput={setDescription} />
              <button type="submit" class="button secondary" disabled={busy || !subject.trim() || !description.trim()}>
                Créer le ticket
              </button>
            </form>
          </section>
        );
      }}
    </Loaded>
  );
}
