function wait(ms) { return new Promise(r => setTimeout(r, ms)); }
function parseDuration(s) { const m = /^(\d+)(ms|s|m)$/.exec(s); if (!m) throw new Error('bad duration ' + s); return +m[1] * ({ms: 1, s: 1000, m: 60000})[m[2]]; }
function queue() { const q = []; return { push: x => q.push(x), pop: () => q.shift(), size: () => q.length }; }
function money(c) { return (c / 100).toFixed(2); }
function slugify(s) { return s.toLowerCase().replace(/[^a-z0-9]+/g, '-'); }
function median(xs) { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; }
module.exports = { wait, parseDuration, queue, money, slugify, median };
