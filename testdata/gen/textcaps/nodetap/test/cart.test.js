const { describe, it } = require('node:test');
const assert = require('node:assert');

const total = (items) => items.reduce((s, it) => s + it.price * it.qty, 0);
const discount = (sum, pct) => Math.floor(sum * (100 - pct)) / 100;

describe('cart', () => {
  describe('total', () => {
    for (let n = 1; n <= 15; n++) {
      it(`sums ${n} items`, () => {
        const items = Array.from({ length: n }, (_, i) => ({ price: i + 1, qty: 2 }));
        assert.strictEqual(total(items), n * (n + 1));
      });
    }
  });
  describe('discount', () => {
    for (const pct of [0, 5, 10, 15, 20, 25]) {
      it(`takes ${pct}% off 200`, () => assert.strictEqual(discount(200, pct), 2 * (100 - pct)));
    }
    it('takes 33% off 99.99', () => assert.strictEqual(discount(99.99, 33), 67));
  });
  it('applies a coupon', { todo: 'coupons come with the promotions service' }, () => {});
});
