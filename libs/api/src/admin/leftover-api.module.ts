import { Module } from '@nestjs/common';
import { ListProductions, ManageExercises, ManageSequences, ManageSessions, ManageStatements, ManageUsers } from '@shellgrade/application';
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
 * Each controller parses, calls one use case of libs/application (provided here, over the ports
 * of the process's global ports module and AuthModule's: guard, login sessions, attempt limits,
 * secret hashing) and renders its view. Import order does not matter (UsersController serves
 * DELETE /api/user/logout itself, through AuthApiModule's SessionHttp, before its `:id` route).
 */

/** /api/user(s), /api/exercise(s), /api/sequence(s), /api/business-session(s). */
@Module({
  imports: [AuthApiModule],
  controllers: [UsersController, ExercisesController, SequencesController, SessionsController],
  providers: [ManageUsers, ManageExercises, ManageSequences, ManageSessions],
})
export class LeftoverApiModule {}

/** /api/student-statement(s) CRUD, GET /api/exercise-production(s) (list) and the productions of a session (S2's internal read). */
@Module({ controllers: [StatementsController, ProductionsListController], providers: [ManageStatements, ListProductions] })
export class StatementApiModule {}
