const { describe, it } = require('node:test');
const assert = require('node:assert');

const toCm = (inch) => Math.round(inch * 2.54 * 100) / 100;
const toKg = (lb) => Math.round(lb * 0.45359237 * 100) / 100;

describe('length', () => {
  describe('toCm', () => {
    for (let i = 1; i <= 12; i++) {
      it(`converts ${i} in`, () => assert.strictEqual(toCm(i), Math.round(i * 254) / 100));
    }
  });
  describe('negative', () => {
    it('keeps the sign', () => assert.strictEqual(toCm(-2), -5.08));
    it('rounds -0.1 in', () => assert.strictEqual(toCm(-0.1), -0.26));
  });
});

describe('mass', () => {
  describe('toKg', () => {
    for (let i = 10; i <= 100; i += 10) {
      it(`converts ${i} lb`, () => assert.strictEqual(toKg(i), Math.round(i * 45.359237) / 100));
    }
  });
  it('converts a stone', { skip: 'stones are not supported yet' }, () => {});
});
