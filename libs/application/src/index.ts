// The use cases the HTTP controllers run (libs/api parses, calls one, renders its view): the
// catalogue's commands and queries, business sessions with their enrolments, grader trials.
// Over the domain's ports and libs/auth's; cross-cutting rules (a read cache's invalidation)
// are decorators of those ports, bound by the wiring, not lines here.
export * from './actor';
export * from './manage-users';
export * from './manage-exercises';
export * from './manage-sequences';
export * from './manage-sessions';
export * from './manage-statements';
export * from './list-productions';
export * from './exercise-trial';
