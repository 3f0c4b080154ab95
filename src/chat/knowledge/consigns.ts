import type { CityKnowledge } from './model.ts';

/** What the city tells its citizens about their bins, one free text per topic (the city's notices). */
export type GuidanceTopic = 'outOfTheBins' | 'presentationOfBins' | 'returnOfBins' | 'respectOfCalendar' | 'holidays';

export function guidanceText(knowledge: CityKnowledge, topic: GuidanceTopic): string | null {
  return knowledge.city[topic];
}
