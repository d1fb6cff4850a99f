/**
 * The queue stub a page pastes before widget.js when it calls the API early
 * (README, "Embedding the widget"): each method records its call; widget.js
 * replays them once it has loaded. It must stay ES5: it runs as written.
 */
export const STUB =
  '!function(w){var Q=w.Questline=w.Questline||{q:[]};"init open close toggle restart reset destroy on".split(" ").forEach(function(m){Q[m]=Q[m]||function(){(Q.q=Q.q||[]).push([m,arguments])}})}(window);';
