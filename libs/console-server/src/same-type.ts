/**
 * true only when A and B are the same type: `const _x: Same<z.infer<typeof schema>, ContractType> = true`
 * fails the typecheck when a zod schema and the contract type it reads drift apart (a field added
 * to one and not the other).
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
