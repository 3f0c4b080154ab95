// Handling a request (docs/console.md, Demandes): its status (a planned day for « Planifiée », a reason for
// « Rejetée ») and its assignee, each a form of the console's editor (the request's ETag as If-Match, a 412 shown as
// the conflict with what the other agent saved, the API's refusal at its field).
import { currentUser, get, type Answer } from '../api.ts';
import { DateField } from '../date-field.tsx';
import { EditorForm, fieldError, showValue } from '../editor-form.tsx';
import { useEditor } from '../editor.tsx';
import { SelectField, TextArea } from '../form-fields.tsx';
import { frenchDate } from '../french.ts';
import type { AdminRequest, RequestAgent, RequestStatus } from '../types.ts';
import { useResource } from '../ui.tsx';
import { REQUEST_STATUS_LABELS, REQUEST_STATUSES } from './request-text.ts';

interface StatusForm {
  status: RequestStatus;
  plannedFor: string;
  reason: string;
}

const STATUS_LABELS: Record<keyof StatusForm, string> = { status: 'Statut', plannedFor: 'Jour prévu', reason: 'Message à l’habitant' };

/**
 * The request's status. `answer` is the request as its screen holds it: both forms start from it and follow it (the
 * screen reads the request once for all three when it changes elsewhere).
 */
export function StatusEditor({ answer, onChanged }: { answer: Answer<AdminRequest>; onChanged: (said: string, saved: Answer<AdminRequest>) => void }) {
  const requestId = answer.data.id;
  const editor = useEditor<AdminRequest, StatusForm>({
    key: `requestStatus:${requestId}`,
    url: `/admin/requests/${requestId}`,
    answer,
    empty: { status: 'RECUE', plannedFor: '', reason: '' },
    toForm: (r) => ({ status: r.status, plannedFor: r.plannedFor ?? '', reason: '' }),
    toBody: (f) => ({
      status: f.status,
      ...(f.status === 'PLANIFIEE' ? { plannedFor: f.plannedFor || null } : {}),
      ...(f.reason.trim() ? { reason: f.reason.trim() } : {}),
    }),
    onSaved: (r, _, answer) =>
      onChanged(`Statut enregistré\u00a0: ${REQUEST_STATUS_LABELS[r.status]}${r.status === 'PLANIFIEE' && r.plannedFor ? `, le ${frenchDate(r.plannedFor)}` : ''}.`, answer),
  });
  return (
    <EditorForm
      editor={editor}
      label="Changer le statut"
      labels={STATUS_LABELS}
      show={(value, field) => (field === 'status' ? REQUEST_STATUS_LABELS[value as RequestStatus] : field === 'plannedFor' && value ? frenchDate(String(value)) : showValue(value))}
      atFields={['status', 'plannedFor', 'reason']}
      onCancel={() => editor.reload()}
    >
      {(f) => (
        <>
          <SelectField
            label="Nouveau statut"
            value={f.status}
            error={fieldError(editor, 'status')}
            options={REQUEST_STATUSES.map((s) => ({ value: s, label: REQUEST_STATUS_LABELS[s] }))}
            onChange={(status) => editor.set({ status: status as RequestStatus })}
          />
          {f.status === 'PLANIFIEE' && (
            <DateField
              label="Jour prévu"
              hint="Le jour où le service interviendra, dit à l’habitant."
              required
              value={f.plannedFor}
              error={fieldError(editor, 'plannedFor')}
              onInput={(plannedFor) => editor.set({ plannedFor })}
            />
          )}
          <TextArea
            label={f.status === 'REJETEE' ? 'Motif du rejet' : 'Message à l’habitant (facultatif)'}
            hint={
              f.status === 'REJETEE'
                ? 'Obligatoire pour rejeter une demande. L’habitant le lit avec le changement de statut.'
                : 'Accompagne le changement de statut que l’habitant voit.'
            }
            required={f.status === 'REJETEE'}
            rows={3}
            maxLength={2000}
            value={f.reason}
            error={fieldError(editor, 'reason')}
            onInput={(reason) => editor.set({ reason })}
          />
        </>
      )}
    </EditorForm>
  );
}

interface AssigneeForm {
  assignedTo: string;
}

/** The agents a request of `groupId` may be given to (what `assignedTo` accepts), by name; none when they cannot be read. */
const loadAgents = (groupId: string) => get<RequestAgent[]>(`/admin/city-groups/${groupId}/request-agents`).catch((): RequestAgent[] => []);

/** The request's assignee, following the screen's `answer` as StatusEditor does. */
export function AssigneeEditor({ answer, onChanged }: { answer: Answer<AdminRequest>; onChanged: (said: string, saved: Answer<AdminRequest>) => void }) {
  const request = answer.data;
  const me = currentUser()!;
  const agents = useResource(`request-agents:${request.cityGroupId}`, () => loadAgents(request.cityGroupId));
  const editor = useEditor<AdminRequest, AssigneeForm>({
    key: `requestAssignee:${request.id}`,
    url: `/admin/requests/${request.id}`,
    answer,
    empty: { assignedTo: '' },
    toForm: (r) => ({ assignedTo: r.assignedTo ?? '' }),
    toBody: (f) => ({ assignedTo: f.assignedTo || null }),
    onSaved: (r, _, answer) =>
      onChanged(
        r.assignedTo === null ? 'La demande n’est plus attribuée.' : r.assignedTo === me.id ? 'La demande vous est attribuée.' : `La demande est attribuée à ${r.assignedToName}.`,
        answer,
      ),
  });
  // The agent first, then the group's agents by name, then the current assignee when they are no longer one of them
  // (their access changed since), kept so that the form shows the request as it is.
  const known = new Map<string, string>([[me.id, `Moi (${me.name})`]]);
  for (const agent of agents.data ?? []) if (!known.has(agent.id)) known.set(agent.id, agent.name);
  if (request.assignedTo && !known.has(request.assignedTo)) {
    const name = request.assignedToName ?? 'Un autre agent';
    known.set(request.assignedTo, agents.data ? `${name} (ne peut plus recevoir de demandes)` : name);
  }
  const nameOf = (id: unknown) => (id ? (known.get(String(id)) ?? 'Un autre agent') : 'Personne');
  return (
    <EditorForm
      editor={editor}
      label="Attribuer la demande"
      labels={{ assignedTo: 'Attribuée à' }}
      show={(value) => nameOf(value)}
      atFields={['assignedTo']}
      onCancel={() => editor.reload()}
    >
      {(f) => (
        <SelectField
          label="Attribuée à"
          value={f.assignedTo}
          error={fieldError(editor, 'assignedTo')}
          options={[{ value: '', label: 'Personne' }, ...[...known].map(([value, label]) => ({ value, label }))]}
          onChange={(assignedTo) => editor.set({ assignedTo })}
        />
      )}
    </EditorForm>
  );
}
