#!/bin/bash
# usage: figs.sh TAG — runs all evals into /tmp/opt-*-TAG.json and prints figures + new wrongs vs base
cd /work/wt-options
T=$1
for s in blind-3 blind-1 blind-2; do for m in "" "--labels-only"; do node bin/questline.js eval test/eval/$s $m --json > /tmp/opt-$s$m-$T.json & done; done
node bin/questline.js eval test/eval --json > /tmp/opt-shipped-$T.json
wait
node -e '
const T=process.argv[1];
const fig=(f)=>{const r=require(f); const e=r.byType.enum||{}, m=r.byType["enum[]"]||{}; return `${r.total}: ${r.correct}/${r.clarified}/${r.silentlyWrong}  enum ${e.correct}/${e.clarified}/${e.silentlyWrong} enum[] ${m.correct??"-"}/${m.clarified??"-"}/${m.silentlyWrong??"-"}`};
const known=new Set(require("fs").readFileSync("test/eval/known-silently-wrong.txt","utf8").split("\n").map(l=>l.trim()).filter(l=>l&&!l.startsWith("#")));
for (const s of ["blind-3","blind-1","blind-2","shipped"]) for (const m of (s==="shipped"?[""]:["","--labels-only"])) {
  const f=`/tmp/opt-${s}${m}-${T}.json`; console.log((s+" "+(m||"flow")).padEnd(24), fig(f));
  const r=require(f); for (const x of r.failures) if (x.verdict==="wrong" && !known.has(x.id)) console.log("   NEW WRONG", x.id, JSON.stringify(x.reply), "expected", JSON.stringify(x.expected.values ?? x.expected.kind), "got", JSON.stringify(x.outcome));
  for (const x of r.failures) if (x.verdict==="error") console.log("   ERROR", x.id, x.error);
}' $T
