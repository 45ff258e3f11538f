export * from './grading-core.module';
