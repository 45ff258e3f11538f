export { inTransaction } from './in-transaction';
