// The chat assistant of the city's group; the conversation survives reloads (its id in localStorage).
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get, messageOf, post } from '../api.ts';
import { chosenPlace, currentCityId, deviceId, read, write } from '../store.ts';
import type { ChatAvailability, ChatMessage, Conversation } from '../types.ts';
import { Loading, NeedCity, Problem, Title, useResource } from '../ui.tsx';

interface SavedConversation {
  id: string;
  cityId: string;
}

const WHO: Record<ChatMessage['role'], string> = { user: 'Vous', assistant: 'Assistant', agent: 'Conseiller' };

async function loadChat(cityId: string) {
  const availability = await get<ChatAvailability>(`/public/chat/availability?cityId=${cityId}`, { fresh: true });
  const saved = read<SavedConversation>('conversation');
  let messages: ChatMessage[] = [];
  if (availability.enabled && saved?.cityId === cityId) {
    try {
      messages = await get<ChatMessage[]>(`/public/chat/conversations/${saved.id}/messages`, { fresh: true });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      write('conversation', null);
    }
  }
  return { enabled: availability.enabled, messages };
}

export function Chat() {
  const cityId = currentCityId();
  const chat = useResource(cityId && `chat:${cityId}`, () => loadChat(cityId!));
  return (
    <section class="chat">
      <Title text="Assistant">Poser une question</Title>
      {!cityId ? (
        <NeedCity what="l'assistant de votre commune" />
      ) : chat.loading ? (
        <Loading what="de la conversation" />
      ) : chat.error != null || !chat.data ? (
        <Problem error={chat.error} retry={chat.reload} />
      ) : !chat.data.enabled ? (
        <p class="card">L'assistant n'est pas proposé dans votre commune. Consultez « Où jeter ? » ou votre calendrier de collecte.</p>
      ) : (
        <ConversationView cityId={cityId} initial={chat.data.messages} />
      )}
    </section>
  );
}

function ConversationView({ cityId, initial }: { cityId: string; initial: ChatMessage[] }) {
  const [messages, setMessages] = useState(initial);
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const end = useRef<HTMLLIElement>(null);
  useEffect(() => end.current?.scrollIntoView({ block: 'nearest' }), [messages.length]);

  const send = async (event: Event) => {
    event.preventDefault();
    const content = draft.trim();
    if (!content || sending) return;
    setSending(true);
    setError(null);
    const pending: ChatMessage = { id: `pending-${Date.now()}`, role: 'user', content, createdAt: new Date().toISOString() };
    setMessages((list) => [...list, pending]);
    setDraft('');
    try {
      let saved = read<SavedConversation>('conversation');
      if (!saved || saved.cityId !== cityId) {
        const conversation = await post<Conversation>('/public/chat/conversations', { deviceId: deviceId(), cityId });
        saved = { id: conversation.id, cityId };
        write('conversation', saved);
      }
      const place = chosenPlace();
      const answer = await post<ChatMessage>(`/public/chat/conversations/${saved.id}/messages`, {
        content,
        placeId: place?.cityId === cityId ? place.placeId : null,
      });
      setMessages((list) => [...list, answer]);
    } catch (err) {
      setMessages((list) => list.filter((m) => m !== pending));
      setDraft(content);
      setError(err);
    } finally {
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
            <p>{m.content}</p>
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
