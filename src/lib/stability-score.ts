/**
 * The stability score (DESIGN §4), 0–100: 100 × passRate × (1 − 0.5^S × 0.85^(N−S)), with S the
 * scenarios that have a passing sample and N the passing samples. Each new scenario halves the
 * remaining doubt; each further sample of a known scenario removes 15% of it.
 */
export function stabilityScore(input: { passing: number; total: number; scenariosPassing: number }): number {
  const { passing: n, total, scenariosPassing: s } = input
  if (total === 0 || n === 0) return 0
  const passRate = n / total
  const score = 100 * passRate * (1 - 0.5 ** s * 0.85 ** (n - s))
  return Math.round(score * 100) / 100
}
