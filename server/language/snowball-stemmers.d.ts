// snowball-stemmers ships no types: the part Questline uses (server/language/stem.ts).
declare module 'snowball-stemmers' {
  interface Stemmer {
    stem(word: string): string;
  }
  const snowball: { newStemmer(algorithm: string): Stemmer; algorithms(): string[] };
  export default snowball;
}
