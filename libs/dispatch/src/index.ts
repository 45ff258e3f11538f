export * from './broker-settings';
export * from './grading-message';
export * from './inline-dispatch';
export * from './refusal';
export * from './reply-budget';
export * from './within';
export * from './interrupted-gradings';
export * from './pipeline';
