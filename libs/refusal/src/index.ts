// What a submission that cannot be taken now is told (503 + Retry-After, rendered as problem+json by
// libs/http): the backlog ahead, the Retry-After, the refusal of an unpublished production.
export * from './queue-wait';
export * from './refusal';
