export { describeLoginRoutes } from './login-routes';
export { startTestApp } from './test-app';
