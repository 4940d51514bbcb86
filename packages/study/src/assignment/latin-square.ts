/**
 * Balanced Latin squares (Williams designs) for counterbalancing the order of tasks or
 * conditions: every item appears once in each position, and every item follows every other
 * item equally often, so carry-over effects cancel across participants. For `n` items there are
 * `n` orders when `n` is even, `2n` when it is odd (each order and its reverse).
 *
 * Williams, E. J. (1949). Experimental designs balanced for the estimation of residual effects
 * of treatments. Australian Journal of Scientific Research, 2(3), 149–168.
 */
export function balancedLatinSquare(n: number): number[][] {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`a Latin square needs a positive number of items, not ${n}`);
  // The first order: 0, 1, n-1, 2, n-2, 3 …; each next order adds 1 (mod n) to every entry.
  const first = [0];
  for (let i = 1, low = 1, high = n - 1; i < n; i++) first.push(i % 2 === 1 ? low++ : high--);
  const rows = Array.from({ length: n }, (_, r) => first.map((v) => (v + r) % n));
  return n % 2 === 0 || n === 1 ? rows : [...rows, ...rows.map((row) => [...row].reverse())];
}

/** The order of `n` items for the `k`-th participant (0-based) of a counterbalanced sequence. */
export function latinOrder(n: number, k: number): number[] {
  const rows = balancedLatinSquare(n);
  return rows[k % rows.length] as number[];
}
