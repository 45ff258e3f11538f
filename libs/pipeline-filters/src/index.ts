// Paper 003's pipes and filters (dispatch: pipeline): the three filters and the message between them.
export * from './filters';
export * from './pipeline-message';
