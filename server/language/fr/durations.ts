import type { DurationWords } from '../duration-words.ts';

/** French counts of days and ages (server/extract/offline/duration-reply.ts); words folded ("été" as "ete"). */
export const FR_DURATIONS: DurationWords = {
  since: ['depuis', 'depuis le', 'depuis la', 'a partir de', 'ca a commence', 'commence', 'a commence'],
  startDays: ['hier', "aujourd'hui", 'ce matin', 'hier soir', 'cette nuit', 'la nuit derniere', 'avant-hier', 'cet apres-midi'],
  today: "aujourd'hui",
  partOfDay: { parts: ['matin', 'apres-midi', 'après-midi', 'soir', 'nuit'], yesterday: ['hier', 'la nuit derniere', 'la nuit dernière'], yesterdayWord: 'hier' },
  holidays: { 'la veille de noel': '12-24', noel: '12-25', 'la saint-sylvestre': '12-31', 'le nouvel an': '01-01', 'nouvel an': '01-01', 'le jour de l an': '01-01', 'la saint-valentin': '02-14', 'le 14 juillet': '07-14' },
  dayUnits: ['jour', 'jours', 'j', 'day', 'days'],
  one: /(?<![\p{L}\p{N}])(un|une)\s+(?=(?:jour|jours|semaine|semaines|heure|heures|mois|an|ans|annee|annees|année|années)(?![\p{L}]))/giu,
  asksAge: /(?:^|[^\p{L}])(?:age|âge|quel age|quel âge)(?:$|[^\p{L}])/iu,
  person: /(?:^|[^\p{L}])(?:vous|votre|patient|patiente|enfant|fils|fille|bebe|bébé|il|elle|personne|joueur|joueuse|membre|invite|invité)(?:$|[^\p{L}])/iu,
  ageUnits: { mois: 12, semaine: 52, semaines: 52, jour: 365, jours: 365, an: 1, ans: 1, annee: 1, annees: 1, 'année': 1, 'années': 1 },
};
