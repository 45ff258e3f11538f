// The dispatch of a grading: the message, its id and its reply budget, inline dispatch, broker
// settings, the sweep of interrupted gradings (a dispatch over a queue is libs/broker-queue's
// QueueDispatch). Its neighbours, one job each:
// @shellgrade/admission (how many a process takes in), @shellgrade/event-loop-pressure (how far
// behind it runs), @shellgrade/refusal (what a refused submission is told), @shellgrade/pipeline-filters
// (paper 003's check → grade → record).
export * from './broker-settings';
export * from './grading-message';
export * from './inline-dispatch';
export * from './within';
export * from './interrupted-gradings';
