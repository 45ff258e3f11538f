export * from './broker-config';
export * from './broker-module';
export * from './grading-message';
export * from './inline.dispatch';
export * from './refusal';
export * from './reply-budget';
export * from './within';
