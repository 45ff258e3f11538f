/** Types of variant-sequencer.js (a plain module: Jest loads test sequencers untransformed). */
declare class VariantSequencer {
  sort<T extends { path: string }>(tests: T[]): T[] | Promise<T[]>;
}
export default VariantSequencer;
export function declaredVariants(source: string): string[] | undefined;
export function e2eOrder(a: { path: string }, b: { path: string }): number;
