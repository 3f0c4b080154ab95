// A request's status as the queue and its page show it: its French name, and « En retard » past its due time.
import type { AdminRequest } from '../types.ts';
import { REQUEST_STATUS_LABELS, isOpenStatus } from './request-text.ts';

export function RequestStatusTag({ request }: { request: Pick<AdminRequest, 'status' | 'overdue'> }) {
  const { status } = request;
  return (
    <>
      <span class={`tag request-status ${isOpenStatus(status) ? status.toLowerCase() : 'closed'}`}>{REQUEST_STATUS_LABELS[status]}</span>
      {request.overdue && (
        <>
          {' '}
          <span class="tag late">En retard</span>
        </>
      )}
    </>
  );
}
