export * from './exercise-service-session-productions';
