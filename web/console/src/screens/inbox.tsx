// The chat inbox (docs/console.md): the agent's groups' conversations, newest first, with filters, kept up to date
// by the server-sent events of GET /chat/events (no polling): a changed conversation moves to its place in the list.
import { useEffect, useState } from 'preact/hooks';
import { currentUser, get, type Page } from '../api.ts';
import { STATUS_LABELS, frenchMoment, type ConversationStatus, type InboxConversation } from '../chat-types.ts';
import { Checkbox, SelectField } from '../form-fields.tsx';
import { listen } from '../live.ts';
import { setQuery } from '../location.ts';
import type { ScreenProps } from '../screens.ts';
import { Table } from '../table.tsx';
import { Loaded, Title, useResource } from '../ui.tsx';
import { Link } from '../../../shared/router.tsx';

const PAGE_SIZE = 50;

/** Newest activity first (conversations without a message last), then newest created, as GET /chat/inbox orders them. */
function newestFirst(a: InboxConversation, b: InboxConversation): number {
  const la = a.lastMessageAt ?? '';
  const lb = b.lastMessageAt ?? '';
  if (la !== lb) return la < lb ? 1 : -1;
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0;
}

export default function Inbox({ query }: ScreenProps) {
  const user = currentUser()!;
  const status = (query.get('statut') ?? '') as ConversationStatus | '';
  const mine = query.get('moi') === '1';
  const filters = new URLSearchParams({ pageSize: String(PAGE_SIZE) });
  if (status) filters.set('status', status);
  if (mine) filters.set('assignedTo', user.id);
  const key = filters.toString();
  const resource = useResource(key, () => get<Page<InboxConversation>>(`/chat/inbox?${key}`));
  const [rows, setRows] = useState<InboxConversation[] | null>(null);
  const [news, setNews] = useState('');
  useEffect(() => setRows(resource.data?.data ?? null), [resource.data]);

  useEffect(
    () =>
      listen(({ event, data }) => {
        if (event === 'reset') return resource.reload();
        if (event !== 'conversation') return;
        const changed = data as InboxConversation;
        const fits = (!status || changed.status === status) && (!mine || changed.assignedTo === user.id);
        setRows((current) => {
          if (!current) return current;
          const known = current.some((c) => c.id === changed.id);
          if (!known && fits) setNews(`Nouvelle activité\u00a0: ${changed.devicePseudonym}, ${STATUS_LABELS[changed.status].toLowerCase()}.`);
          const others = current.filter((c) => c.id !== changed.id);
          return (fits ? [...others, changed] : others).sort(newestFirst).slice(0, PAGE_SIZE);
        });
      }),
    [key],
  );

  return (
    <section>
      <Title text="Conversations">Conversations</Title>
      <div class="filters">
        <SelectField
          label="Statut"
          value={status}
          options={[{ value: '', label: 'Tous' }, ...Object.entries(STATUS_LABELS).map(([value, label]) => ({ value, label }))]}
          onChange={(v) => setQuery('statut', v || null)}
        />
        <Checkbox label="Attribuées à moi" checked={mine} onChange={(c) => setQuery('moi', c ? '1' : null)} />
      </div>
      <p class="visually-hidden" role="status">
        {news}
      </p>
      <Loaded resource={{ ...resource, data: rows }} what="des conversations">
        {(list) => (
          <>
            <p class="muted">
              {list.length} conversation{list.length > 1 ? 's' : ''}
              {resource.data!.meta.total > PAGE_SIZE ? ` (les ${PAGE_SIZE} plus récentes)` : ''} · mise à jour en direct
            </p>
            <Table
              caption="Conversations, la plus récente d’abord"
              rows={list}
              rowKey={(c) => c.id}
              empty="Aucune conversation pour ces filtres."
              columns={[
                { label: 'Citoyen', cell: (c) => <Link href={`/console/conversations/${c.id}`}>{c.devicePseudonym}</Link> },
                { label: 'Statut', cell: (c) => <span class={`tag${c.status === 'WAITING_AGENT' ? '' : c.status === 'CLOSED' ? ' closed' : ' open'}`}>{STATUS_LABELS[c.status]}</span> },
                { label: 'Attribuée à', cell: (c) => (c.assignedTo === null ? '—' : c.assignedTo === user.id ? 'moi' : 'un autre agent') },
                { label: 'Dernier message', cell: (c) => (c.lastMessageAt ? frenchMoment(c.lastMessageAt) : '—') },
              ]}
            />
          </>
        )}
      </Loaded>
    </section>
  );
}
