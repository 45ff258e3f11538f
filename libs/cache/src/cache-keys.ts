/**
 * The Redis keys of the submission-context cache, in one place so fills and invalidations agree.
 * Every replica of a variant shares one Redis, so one replica's invalidation is seen by all.
 */

/** The cached context of one student statement (the request's statement id). */
export const contextKey = (statementId: number) => `sg:ctx:${statementId}`;

/** Set of the statement ids whose context is cached, per exercise: what an exercise change drops. */
export const exerciseIndexKey = (exerciseId: number) => `sg:ctx:ex:${exerciseId}`;

/**
 * Change counters, bumped by every invalidation. A miss remembers them before reading
 * PostgreSQL and its fill is refused if one moved meanwhile: otherwise a read that raced an
 * update could store the old row after the invalidation dropped it.
 */
export const exerciseGenerationKey = (exerciseId: number) => `sg:ctx:gen:ex:${exerciseId}`;
export const statementGenerationKey = (statementId: number) => `sg:ctx:gen:st:${statementId}`;


/** The productions of one session as a report reads them (S2), tagged with the generation below. */
export const sessionProductionsKey = (sessionId: number) => `sg:ctx:sp:${sessionId}`;

/** Bumped by every production write: a session-productions entry of another generation is stale. */
export const productionsGenerationKey = () => 'sg:ctx:gen:prod';

/** Every key above (what a cold start deletes). */
export const CACHE_KEY_PATTERN = 'sg:ctx:*';
