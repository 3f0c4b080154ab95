// The chat assistant of the city's group; the conversation survives reloads (its id in localStorage).
// While a human agent holds it, the screen polls its messages and status so that the agent's replies show.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get, messageOf, post } from '../api.ts';
import { chosenPlace, currentCityId, deviceId, read, write } from '../store.ts';
import { ContactBlock, groupOfCity } from '../contact.tsx';
import type { ChatAvailability, ChatMessage, CityGroup, Conversation, Listing } from '../types.ts';
import { Loading, NeedCity, OfflineNotice, Problem, Title, useResource } from '../ui.tsx';
import { withAppLinks } from '../app-links.tsx';

interface SavedConversation {
  id: string;
  cityId: string;
}

type Status = Conversation['status'];

const NBSP = '\u00a0';

const WHO: Record<ChatMessage['role'], string> = { user: 'Vous', assistant: 'Assistant', agent: 'Conseiller' };

/** What the citizen is told while the conversation is not the assistant's alone. */
const STATUS_LINE: Partial<Record<Status, string>> = {
  WAITING_AGENT: "Un conseiller a été prévenu : sa réponse s'affichera ici.",
  WITH_AGENT: 'Vous échangez avec un conseiller.',
  CLOSED: 'Cette conversation est close.',
};

/** How often the messages are read again while an agent holds the conversation. */
const POLL_MS = 5000;

const held = (status: Status | null) => status === 'WAITING_AGENT' || status === 'WITH_AGENT';

/** The conversation's status, read from the device's conversation listing (newest first); null when not found. */
async function statusOf(conversationId: string): Promise<Status | null> {
  const listing = await get<Listing<Conversation>>(`/public/chat/conversations/${deviceId()}?pageSize=100`, { fresh: true });
  return listing.data.find((c) => c.id === conversationId)?.status ?? null;
}

const messagesOf = (conversationId: string) =>
  get<ChatMessage[]>(`/public/chat/conversations/${conversationId}/messages`, { fresh: true });

async function loadChat(cityId: string) {
  const [availability, group] = await Promise.all([
    get<ChatAvailability>(`/public/chat/availability?cityId=${cityId}`, { fresh: true }),
    groupOfCity(cityId).catch(() => null),
  ]);
  const saved = read<SavedConversation>('conversation');
  let messages: ChatMessage[] = [];
  let status: Status | null = null;
  if (availability.enabled && saved?.cityId === cityId) {
    try {
      [messages, status] = await Promise.all([messagesOf(saved.id), statusOf(saved.id)]);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      write('conversation', null);
    }
  }
  return { enabled: availability.enabled, messages, status, group };
}

export function Chat() {
  const cityId = currentCityId();
  const chat = useResource(cityId && `chat:${cityId}`, () => loadChat(cityId!));
  return (
    <section class="chat">
      <Title text="Assistant">Poser une question</Title>
      <OfflineNotice what="l'assistant a besoin d'internet pour répondre. Les messages déjà échangés restent lisibles." />
      {!cityId ? (
        <NeedCity what="l'assistant de votre commune" />
      ) : chat.loading ? (
        <Loading what="de la conversation" />
      ) : chat.error != null || !chat.data ? (
        <Problem error={chat.error} retry={chat.reload} />
      ) : !chat.data.enabled ? (
        <>
          <p class="card">
            L'assistant n'est pas proposé dans votre commune. Consultez «{NBSP}Où jeter{NBSP}?{NBSP}» ou votre calendrier de collecte
            {chat.data.group?.contactPhone || chat.data.group?.contactEmail ? `, ou contactez le service déchets${NBSP}:` : '.'}
          </p>
          <ContactBlock group={chat.data.group} />
        </>
      ) : (
        <ConversationView cityId={cityId} initial={chat.data.messages} initialStatus={chat.data.status} group={chat.data.group} />
      )}
    </section>
  );
}

function ConversationView(props: { cityId: string; initial: ChatMessage[]; initialStatus: Status | null; group: CityGroup | null }) {
  const { cityId, initial, initialStatus, group } = props;
  const [messages, setMessages] = useState(initial);
  const [status, setStatus] = useState(initialStatus);
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const end = useRef<HTMLLIElement>(null);
  // Bumped by every send: a poll that started before it must not overwrite what the send shows.
  const generation = useRef(0);
  const busy = useRef(false);
  useEffect(() => end.current?.scrollIntoView({ block: 'nearest' }), [messages.length]);

  const polling = held(status);
  useEffect(() => {
    if (!polling) return;
    let stopped = false;
    let inFlight = false;
    const poll = async () => {
      const saved = read<SavedConversation>('conversation');
      if (stopped || inFlight || busy.current || document.visibilityState !== 'visible' || !saved) return;
      inFlight = true;
      const started = generation.current;
      try {
        const [list, next] = await Promise.all([messagesOf(saved.id), statusOf(saved.id)]);
        if (stopped || busy.current || started !== generation.current) return;
        setMessages(list);
        if (next) setStatus(next);
      } catch {
        // A failed poll is retried on the next tick; the citizen's own sends report errors.
      } finally {
        inFlight = false;
      }
    };
    const timer = setInterval(poll, POLL_MS);
    const onVisible = () => void poll();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [polling]);

  /** Creates a conversation for this city and remembers it. */
  const start = async (): Promise<SavedConversation> => {
    const conversation = await post<Conversation>('/public/chat/conversations', { deviceId: deviceId(), cityId });
    const saved = { id: conversation.id, cityId };
    write('conversation', saved);
    setStatus(conversation.status);
    return saved;
  };

  const send = async (event: Event) => {
    event.preventDefault();
    const content = draft.trim();
    if (!content || sending) return;
    busy.current = true;
    generation.current++;
    setSending(true);
    setError(null);
    const pending: ChatMessage = { id: `pending-${Date.now()}`, role: 'user', content, createdAt: new Date().toISOString() };
    // A closed conversation is not continued: the next message starts a new one.
    const fresh = status === 'CLOSED';
    setMessages((list) => (fresh ? [pending] : [...list, pending]));
    setDraft('');
    try {
      let saved = read<SavedConversation>('conversation');
      if (!saved || saved.cityId !== cityId || fresh) saved = await start();
      const place = chosenPlace();
      const body = { content, placeId: place?.cityId === cityId ? place.placeId : null };
      let answer: ChatMessage;
      try {
        answer = await post<ChatMessage>(`/public/chat/conversations/${saved.id}/messages`, body);
      } catch (err) {
        // Closed by an agent since the last look: forget it and carry on in a new conversation.
        if (!(err instanceof ApiError && err.status === 400) || (await statusOf(saved.id)) !== 'CLOSED') throw err;
        saved = await start();
        setMessages([pending]);
        answer = await post<ChatMessage>(`/public/chat/conversations/${saved.id}/messages`, body);
      }
      // While an agent holds the conversation the answer (202) is the stored user message itself: it replaces the pending one.
      if (answer.role === 'user') setMessages((list) => list.map((m) => (m === pending ? answer : m)));
      else setMessages((list) => [...list, answer]);
      const next = await statusOf(saved.id).catch(() => null);
      if (next) setStatus(next);
    } catch (err) {
      setMessages((list) => list.filter((m) => m !== pending));
      setDraft(content);
      setError(err);
    } finally {
      busy.current = false;
      generation.current++;
      setSending(false);
    }
  };

  return (
    <>
      <p class="lead">Jours de collecte, consignes de tri, déchèteries : l'assistant connaît votre commune.</p>
      <ol class="messages" aria-live="polite" aria-label="Conversation">
        {messages.length === 0 && (
          <li class="message assistant">
            <span class="who">Assistant</span>
            <p>Bonjour ! Demandez-moi par exemple « Quand passe la poubelle jaune ? » ou « Où jeter une pile ? ».</p>
          </li>
        )}
        {messages.map((m) => (
          <li key={m.id} class={`message ${m.role}`}>
            <span class="who">{WHO[m.role]}</span>
            {/* The service's words may name the app's screens (« /signaler?type=… »): links there; the citizen's own stay text. */}
            <p>{m.role === 'user' ? m.content : withAppLinks(m.content)}</p>
          </li>
        ))}
        {sending && (
          <li class="message assistant" role="status">
            <span class="who">Assistant</span>
            <p>… écrit une réponse</p>
          </li>
        )}
        <li ref={end} aria-hidden="true" class="end" />
      </ol>
      {status && STATUS_LINE[status] && (
        <p class="notice chat-status" role="status">
          {STATUS_LINE[status]}
          {status === 'WAITING_AGENT' &&
            (group?.contactHours
              ? ` Les conseillers répondent ${group.contactHours}${/[.!?]$/.test(group.contactHours) ? '' : '.'}`
              : ' Les conseillers répondent aux heures d’ouverture du service.')}
        </p>
      )}
      {held(status) && <ContactBlock group={group} />}
      {error != null && <p class="problem" role="alert">Votre message n'a pas été envoyé. {messageOf(error)}</p>}
      <form class="composer" onSubmit={send}>
        <label for="chat-input" class="visually-hidden">
          Votre question
        </label>
        <input
          id="chat-input"
          type="text"
          autocomplete="off"
          maxLength={2000}
          placeholder="Votre question"
          value={draft}
          onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
        />
        <button type="submit" class="button" disabled={sending || !draft.trim()}>
          Envoyer
        </button>
      </form>
    </>
  );
}
