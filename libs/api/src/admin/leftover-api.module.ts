import { Module } from '@nestjs/common';
import { AuthApiModule } from '../auth/auth-api.module';
import { ExercisesController } from './exercises.controller';
import { ProductionsListController } from './productions-list.controller';
import { SequencesController } from './sequences.controller';
import { SessionsController } from './sessions.controller';
import { StatementsController } from './statements.controller';
import { UsersController } from './users.controller';

/*
 * The CRUD part of the HTTP contract, split as the gateway routes it (paper 000 §III):
 * users, exercises, sequences and sessions live in the Leftover service; student statements
 * and the production list sit with the Exercise service. The monolith imports both.
 *
 * Both need the global PersistenceModule (repositories) and AuthModule (guard, the login-sessions
 * port, KDF cost); import order does not matter (UsersController serves DELETE /api/user/logout
 * itself, through AuthApiModule's SessionHttp, before its `:id` route).
 */

/** /api/user(s), /api/exercise(s), /api/sequence(s), /api/business-session(s). */
@Module({ imports: [AuthApiModule], controllers: [UsersController, ExercisesController, SequencesController, SessionsController] })
export class LeftoverApiModule {}

/** /api/student-statement(s) CRUD, GET /api/exercise-production(s) (list) and the productions of a session (S2's internal read). */
@Module({ controllers: [StatementsController, ProductionsListController] })
export class StatementApiModule {}
