import type { DurationWords } from '../duration-words.ts';

/** Spanish counts of days and ages (server/extract/offline/duration-reply.ts); words folded ("días" as "dias"). */
export const ES_DURATIONS: DurationWords = {
  since: ['desde', 'desde el', 'desde la', 'a partir de', 'empezo', 'empezó', 'comenzo', 'comenzó', 'empece', 'empecé'],
  startDays: ['ayer', 'hoy', 'esta manana', 'esta mañana', 'anoche', 'ayer por la noche', 'anteayer', 'antier', 'esta tarde'],
  today: 'hoy',
  partOfDay: { parts: ['manana', 'mañana', 'tarde', 'noche'], yesterday: ['ayer', 'anoche'], yesterdayWord: 'ayer' },
  holidays: { nochebuena: '12-24', navidad: '12-25', nochevieja: '12-31', 'ano nuevo': '01-01', 'año nuevo': '01-01', 'san valentin': '02-14', 'san valentín': '02-14', reyes: '01-06' },
  dayUnits: ['dia', 'dias', 'día', 'días', 'd', 'day', 'days'],
  one: /(?<![\p{L}\p{N}])(un|una)\s+(?=(?:dia|día|dias|días|semana|semanas|hora|horas|mes|meses|ano|año|anos|años)(?![\p{L}]))/giu,
  asksAge: /(?:^|[^\p{L}])(?:edad|cuantos anos|cuántos años)(?:$|[^\p{L}])/iu,
  person: /(?:^|[^\p{L}])(?:usted|su|tu|paciente|nino|niño|nina|niña|hijo|hija|bebe|bebé|el|él|ella|persona|jugador|jugadora|miembro|invitado)(?:$|[^\p{L}])/iu,
  ageUnits: { mes: 12, meses: 12, semana: 52, semanas: 52, dia: 365, dias: 365, 'día': 365, 'días': 365, ano: 1, anos: 1, 'año': 1, 'años': 1 },
};
