import type { RecordFault } from '../domain/rules/faults.ts';
import { bundleMessages } from '../kernel/validation-messages.ts';

/**
 * The rules of challenges and their series, once their shape is right, for the admin API and the import bundle
 * alike; each checks one record with the ids it may reference, its faults' paths relative to the record (see
 * src/domain/rules/cities.ts).
 */

/** What a serie may reference: the quiz questions of its challenge's city. */
export interface CityQuizQuestions {
  quizQuestionIds: ReadonlySet<string>;
}

/**
 * What a requirement may name: every challenge that will exist after the write, each with the one it requires
 * (null for none). The rule needs the database, so it runs after the others.
 */
export interface ChallengeRequirements {
  requiredOf: ReadonlyMap<string, string | null>;
  /**
   * When given, the challenges a requirement may name: the admin API keeps a requirement within the challenge's city
   * (a bundle may name any challenge it or the database holds).
   */
  sameCity?: ReadonlySet<string>;
}

export function challengeFaults(challenge: { startDate?: string | null; endDate?: string | null }): RecordFault[] {
  if (challenge.startDate != null && challenge.endDate != null && Date.parse(challenge.endDate) < Date.parse(challenge.startDate)) {
    return [{ path: 'endDate', message: bundleMessages.endsBefore('startDate') }];
  }
  return [];
}

/** requiredChallengeId names another challenge, and following the requirements from there never comes back. */
export function requirementFaults(
  challenge: { id: string; requiredChallengeId?: string | null },
  challenges: ChallengeRequirements,
): RecordFault[] {
  const required = challenge.requiredChallengeId;
  if (required == null) return [];
  const fault = (message: string): RecordFault[] => [{ path: 'requiredChallengeId', message }];
  if (required === challenge.id) return fault(bundleMessages.challengeRequiresItself);
  if (challenges.sameCity && !challenges.sameCity.has(required)) return fault(bundleMessages.notAChallengeOfTheCity(required));
  if (!challenges.requiredOf.has(required)) return fault(bundleMessages.unknownChallenge(required));
  const chain = [challenge.id];
  const visited = new Set(chain);
  let current: string | null | undefined = required;
  while (current != null && !visited.has(current)) {
    visited.add(current);
    chain.push(current);
    current = challenges.requiredOf.get(current);
  }
  return current === challenge.id ? fault(bundleMessages.requirementCycle([...chain, current])) : [];
}

/** Its questions are quiz questions of the city, each once. */
export function serieFaults(serie: { quizQuestionIds?: readonly string[] | null }, city: CityQuizQuestions): RecordFault[] {
  const faults: RecordFault[] = [];
  const inSerie = new Set<string>();
  (serie.quizQuestionIds ?? []).forEach((questionId, i) => {
    const path = `quizQuestionIds[${i}]`;
    if (!city.quizQuestionIds.has(questionId)) faults.push({ path, message: bundleMessages.notAQuizQuestionOfTheCity(questionId) });
    else if (inSerie.has(questionId)) faults.push({ path, message: bundleMessages.questionTwiceInSerie(questionId) });
    inSerie.add(questionId);
  });
  return faults;
}
