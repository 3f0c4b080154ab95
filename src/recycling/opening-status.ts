import { openingStateAt } from '../domain/opening-hours.ts';
import { greatCircleMeters } from '../kernel/geo.ts';
import type { HolidayCalendar } from '../kernel/holidays.ts';
import type { StoredPoint } from './repository.ts';
import type { RecyclingPointStatus } from './schemas.ts';

export interface PointsRequest {
  at: Date;
  /** IANA zone of the city, whose wall clock the specs speak of. */
  timeZone: string;
  /** The city's public holidays, which the specs' `PH` means. */
  holidayCalendar: HolidayCalendar;
  from: { lat: number; lon: number } | null;
  wasteTypeId: string | null;
}

/**
 * The city's points as GET /public/cities/:cityId/recycling-points answers them: those that take `wasteTypeId`
 * (all without it), each with its opening state at `at` (on the city's holidays) and its distance from `from`; nearest first when `from`
 * is given (points without a position last), else by name. Also answers the earliest state change among them,
 * until which the answer stays right.
 */
export function pointStatuses(points: StoredPoint[], request: PointsRequest): { points: RecyclingPointStatus[]; earliestChange: Date | null } {
  let earliestChange: Date | null = null;
  const answered = points
    .filter((p) => request.wasteTypeId === null || p.materials.some((m) => m.id === request.wasteTypeId))
    .map((p): RecyclingPointStatus => {
      const state = p.openingHoursSpec === null ? null : openingStateAt(p.openingHoursSpec, request.at, request.timeZone, request.holidayCalendar);
      if (state?.nextChange && (earliestChange === null || state.nextChange < earliestChange)) earliestChange = state.nextChange;
      const located = p.latitude !== null && p.longitude !== null;
      return {
        id: p.id,
        name: p.name,
        address: p.address,
        latitude: p.latitude,
        longitude: p.longitude,
        openingHours: p.openingHours,
        kind: p.kind,
        materials: p.materials.map((m) => m.id),
        openingHoursSpec: p.openingHoursSpec,
        openNow: state?.openNow ?? null,
        nextChange: state?.nextChange?.toISOString() ?? null,
        distanceMeters:
          request.from && located ? greatCircleMeters(request.from, { lat: p.latitude!, lon: p.longitude! }) : null,
      };
    });
  if (request.from) {
    // Stable sort: equal distances (and unlocated points) keep the name order the points came in.
    answered.sort((a, b) => (a.distanceMeters ?? Infinity) - (b.distanceMeters ?? Infinity) || 0);
  }
  return { points: answered, earliestChange };
}

