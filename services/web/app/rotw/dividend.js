// @ts-check
// What a dividend does, as the advanced game's seed table says (the engine's
// advanced/shares.py move_for_dividend and advanced/dividends.py; app/tests/rotw_dividend.test.mjs
// checks these against it): the page shows it beside every amount a controller may choose.
// Money in dollars, share prices in thousands, as the view has them.

/**
 * The share price change for a dividend of `paid` dollars at `price` ($1,000s): nothing paid
 * −2; up to half the price −1; above half but below the price 0; else + paid ÷ price.
 * @param {number} price @param {number} paid
 */
export function priceMove(price, paid) {
  if (paid <= 0) return -2;
  const k = paid / 1000;
  if (k * 2 <= price) return -1;
  if (k < price) return 0;
  return Math.floor(k / price);
}

/** The price after the move (never below 1). @param {number} price @param {number} paid */
export function priceAfter(price, paid) {
  return Math.max(1, price + priceMove(price, paid));
}

/**
 * Each outstanding share's part, rounded down to $1,000 (the bank keeps the rest).
 * @param {number} amount @param {number} outstanding
 */
export function perShare(amount, outstanding) {
  return outstanding > 0 ? Math.floor(amount / outstanding / 1000) * 1000 : 0;
}

/**
 * The amounts where the price move changes (the seed table's rows), up to `max`:
 * $0, the most at −1, the least at 0, then each multiple of the price.
 * @param {number} price @param {number} max  dollars
 */
export function thresholds(price, max) {
  const half = Math.floor(price / 2) * 1000;
  const out = [0, half, half + 1000, price * 1000, 2 * price * 1000, 3 * price * 1000, max];
  return [...new Set(out.filter((a) => a >= 0 && a <= max))].sort((a, b) => a - b);
}

/**
 * A share's worth at the end: its price less one per bond of its company, never below 0.
 * @param {{price: number, bonds: number}} company  @returns {number} dollars
 */
export function shareValue(company) {
  return Math.max(0, company.price - company.bonds) * 1000;
}
