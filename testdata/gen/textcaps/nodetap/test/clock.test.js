const { describe, it } = require('node:test');
const assert = require('node:assert');

const hhmm = (minutes) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

describe('clock', () => {
  for (const m of [0, 59, 60, 61, 600, 719, 720, 1439]) {
    it(`formats ${m} minutes`, () => assert.strictEqual(hhmm(m), new Date(Date.UTC(2026, 0, 1, 0, m)).toISOString().slice(11, 16)));
  }
  it('wraps at midnight', { skip: 'the 24-hour wrap is not implemented' }, () => {});
});
