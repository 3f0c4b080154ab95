// Answering a request: a public reply (the requester sees it, and is told by e-mail when they gave an address) or an
// internal note (agents only), with the group's canned replies insertable (POST /admin/requests/:id/replies).
import { useState } from 'preact/hooks';
import { ApiError, request, type Answer } from '../api.ts';
import type { CannedReply } from '../chat-types.ts';
import type { AdminRequest } from '../types.ts';
import { RadioGroup, SelectField, TextArea } from '../form-fields.tsx';
import { Problem } from '../ui.tsx';

type Kind = 'public' | 'note';

export function ReplyForm({ requestId, canned, onSent }: { requestId: string; canned: CannedReply[]; onSent: (said: string, saved: Answer<AdminRequest>) => void }) {
  const [kind, setKind] = useState<Kind>('public');
  const [text, setText] = useState('');
  const [cannedId, setCannedId] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const atMessage = error instanceof ApiError && error.field === 'message' ? error.message : null;

  const send = async () => {
    setBusy(true);
    setError(null);
    try {
      const saved = await request<AdminRequest>('POST', `/admin/requests/${requestId}/replies`, { body: { message: text, public: kind === 'public' } });
      setText('');
      setCannedId('');
      onSent(kind === 'public' ? 'Réponse envoyée à l’habitant.' : 'Note interne ajoutée.', saved);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="card"
      aria-labelledby="request-reply-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <h2 id="request-reply-title">Répondre</h2>
      <RadioGroup<Kind>
        legend="Type de message"
        value={kind}
        options={[
          { value: 'public', label: 'Réponse publique' },
          { value: 'note', label: 'Note interne' },
        ]}
        hint={'Une réponse publique s’ajoute à l’historique que l’habitant voit (et lui est envoyée par e-mail s’il a donné son adresse)\u202f; une note interne n’est lue que par les agents.'}
        onChange={setKind}
      />
      {canned.length > 0 && (
        <SelectField
          label="Réponses types"
          hint="Insère le texte choisi, que vous pouvez modifier avant d’envoyer."
          value={cannedId}
          options={[{ value: '', label: 'Choisir…' }, ...canned.map((r) => ({ value: r.id, label: r.title }))]}
          onChange={(id) => {
            setCannedId(id);
            const reply = canned.find((r) => r.id === id);
            if (reply) setText(text.trim() ? `${text.trimEnd()}\n\n${reply.content}` : reply.content);
          }}
        />
      )}
      <TextArea label="Message" value={text} rows={5} maxLength={2000} required error={atMessage} onInput={setText} />
      {error !== null && !atMessage && <Problem error={error} />}
      <div class="actions">
        <button type="submit" class="button" disabled={busy || !text.trim()}>
          {kind === 'public' ? 'Envoyer la réponse' : 'Ajouter la note'}
        </button>
      </div>
    </form>
  );
}
