const { describe, it } = require('node:test');
const assert = require('node:assert');

const parseQty = (s) => {
  const n = Number.parseInt(s, 10);
  if (Number.isNaN(n) || n < 0) throw new RangeError(`bad quantity: ${s}`);
  return n;
};

describe('parseQty', () => {
  for (const s of ['0', '1', '7', '42', '100', '999']) {
    it(`reads "${s}"`, () => assert.strictEqual(parseQty(s), Number(s)));
  }
  it('rejects "-3"', () => assert.throws(() => parseQty('-3'), RangeError));
  it('rejects "abc"', () => assert.throws(() => parseQty('abc'), RangeError));
  it('rejects "4.5"', () => assert.throws(() => parseQty('4.5'), RangeError));
});
