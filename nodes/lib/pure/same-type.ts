/**
 * A list held to the type it mirrors, both ways: `const X: Same<A, B> = true` fails to
 * compile when A has a member B lacks, or B one A lacks. Where a list of names stands beside
 * a union (connection states, health kinds, a scenario's events), a name added on one side
 * only is a compile error, not a row or a check that silently misses it.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
