import type { FastifyInstance } from 'fastify';
import { MS_PER_DAY, todayIn, formatDayNumber } from '../kernel/dates.ts';
import { USAGE_TIME_ZONE } from './repository.ts';

/**
 * The language model's budgets: calls per client IP (per minute and per hour) and per city group and day. A call
 * past any of them is not made: the built-in assistant answers, and the citizen sees no error. Counted in the rate
 * limits' windows (Redis when REDIS_URL is set, so every instance shares them; memory otherwise).
 */

/** Which budget a call would overrun. */
export type SpentBudget = 'ip-minute' | 'ip-hour' | 'group-day';

/** Counts one call against the budgets; the budget it overruns (the call must not be made), or null. */
export type ModelCallBudget = () => Promise<SpentBudget | null>;

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** The budgets of one message: its client IP and its conversation's group. */
export function modelCallBudgets(app: FastifyInstance): (ip: string, cityGroupId: string, now: Date) => ModelCallBudget {
  const { config } = app;
  const perMinute = app.rateBudget('llm-ip-minute', config.llmIpCallsPerMinute, MINUTE_MS);
  const perHour = app.rateBudget('llm-ip-hour', config.llmIpCallsPerHour, HOUR_MS);
  // One key per group and calendar day in the time zone /chat/usage counts in: the next day has a new key.
  const perDay = app.rateBudget('llm-group-day', config.llmDailyCallsPerGroup, MS_PER_DAY);
  return (ip, cityGroupId, now) => async () => {
    // An IP past its own budget does not spend its group's.
    if ((await perMinute(ip)).exceeded) return 'ip-minute';
    if ((await perHour(ip)).exceeded) return 'ip-hour';
    if ((await perDay(`${cityGroupId}:${formatDayNumber(todayIn(USAGE_TIME_ZONE, now))}`)).exceeded) return 'group-day';
    return null;
  };
}
