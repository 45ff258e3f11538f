// Generated from the OpenAPI contract (libs/api-contract) by apps/web/api-types.mjs: do not edit.
export interface paths {
    "/app-config.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the web app needs to know of the server that serves it */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the settings */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebAppConfig"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log in: sets httpOnly access_token and refresh_token cookies */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["LoginRequest"];
                };
            };
            responses: {
                /** @description the account logged in */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SessionUser"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Rotates the refresh token (cookie or bearer) and sets a fresh access token; a reused refresh token revokes its login */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the account still logged in */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SessionUser"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/user/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revokes this session (every replica) and clears the cookies */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description logged out */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LoggedOut"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users (staff: all, filtered by role; a student: itself) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number;
                    role?: "admin" | "teacher" | "student";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description a page of accounts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SessionUser"][];
                    };
                };
            };
        };
        put?: never;
        /** Create an account (admin) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["NewUser"];
                };
            };
            responses: {
                /** @description the account created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SessionUser"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account logged in */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the account */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SessionUser"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One account */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the account */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SessionUser"];
                    };
                };
            };
        };
        /** Update an account (admin: any field; a user: own names, and own password with current_password). A new password ends the other sessions.: the same as PATCH */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UserUpdate"];
                };
            };
            responses: {
                /** @description the account as updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SessionUser"];
                    };
                };
            };
        };
        post?: never;
        /** Delete an account (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the account is deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UserDeleted"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Update an account (admin: any field; a user: own names, and own password with current_password). A new password ends the other sessions. */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UserUpdate"];
                };
            };
            responses: {
                /** @description the account as updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SessionUser"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/exercise": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Exercises without archives (students: published only) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number;
                    state?: "draft" | "published" | "archived";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description a page of exercises */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Exercise"][];
                    };
                };
            };
        };
        put?: never;
        /** Create exercise (staff) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["NewExercise"];
                };
            };
            responses: {
                /** @description the exercise created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Exercise"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exercise/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One exercise */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the exercise */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Exercise"];
                    };
                };
            };
        };
        /** Update exercise (staff): the same as PATCH */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ExerciseUpdate"];
                };
            };
            responses: {
                /** @description the exercise as updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Exercise"];
                    };
                };
            };
        };
        post?: never;
        /** Delete an exercise (409 once students have statements or productions for it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the exercise is deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExerciseDeleted"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Update exercise (staff) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ExerciseUpdate"];
                };
            };
            responses: {
                /** @description the exercise as updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Exercise"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/sequence": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sequences of exercises */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description a page of sequences */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Sequence"][];
                    };
                };
            };
        };
        put?: never;
        /** Create sequence (staff) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["NewSequence"];
                };
            };
            responses: {
                /** @description the sequence created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Sequence"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sequence/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One sequence */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the sequence */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Sequence"];
                    };
                };
            };
        };
        /** Update sequence (staff): the same as PATCH */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SequenceUpdate"];
                };
            };
            responses: {
                /** @description the sequence as updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Sequence"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a sequence (staff) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the sequence is deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SequenceDeleted"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Update sequence (staff) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SequenceUpdate"];
                };
            };
            responses: {
                /** @description the sequence as updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Sequence"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/business-session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Business sessions (students: those they are enrolled in) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description a page of business sessions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BusinessSession"][];
                    };
                };
            };
        };
        put?: never;
        /** Create a session; the enrolment key (generated when omitted) is shown in this answer only */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["NewBusinessSession"];
                };
            };
            responses: {
                /** @description the business session created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BusinessSession"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/business-session/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One business session */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the business session */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BusinessSession"];
                    };
                };
            };
        };
        /** Update business session (staff): the same as PATCH */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["BusinessSessionUpdate"];
                };
            };
            responses: {
                /** @description the business session as updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BusinessSession"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a session (409 while it has student statements) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the business session is deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BusinessSessionDeleted"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Update business session (staff) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["BusinessSessionUpdate"];
                };
            };
            responses: {
                /** @description the business session as updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BusinessSession"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/business-session/{id}/enrolments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The students enrolled (staff) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description their ids */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Enrolments"];
                    };
                };
            };
        };
        put?: never;
        /** Student: enrol with {enrolment_key}; staff: enrol {user_ids} */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["Enrolment"];
                };
            };
            responses: {
                /** @description how many were enrolled */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Enrolled"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/business-session/{id}/enrolments/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Unenrol a student (staff), or leave the session (the student itself) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                    user_id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description unenrolled */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unenrolled"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/business-session/{id}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Results of a session (grade distribution, per-exercise pass rates, per-student progress); ?format=csv for the per-student CSV */
        get: {
            parameters: {
                query?: {
                    format?: "json" | "csv";
                };
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the session's results */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SessionReport"];
                        "text/csv": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/student-statement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Statements without archives (students: their own) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number;
                    user_id?: number;
                    session_id?: number;
                    ex_id?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description a page of student statements */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Statement"][];
                    };
                };
            };
        };
        put?: never;
        /** Create student statement (staff) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["NewStatement"];
                };
            };
            responses: {
                /** @description the student statement created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Statement"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/student-statement/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One student statement */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the student statement */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Statement"];
                    };
                };
            };
        };
        /** Update student statement (staff): the same as PATCH */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["StatementUpdate"];
                };
            };
            responses: {
                /** @description the student statement as updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Statement"];
                    };
                };
            };
        };
        post?: never;
        /** Delete a statement (409 once productions reference it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the student statement is deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatementDeleted"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Update student statement (staff) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["StatementUpdate"];
                };
            };
            responses: {
                /** @description the student statement as updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Statement"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/exercise-production": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Productions, newest first (staff: all, filterable; students: their own) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    offset?: number;
                    user_id?: number;
                    ex_id?: number;
                    ps_id?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description a page of productions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Production"][];
                    };
                };
            };
        };
        put?: never;
        /** Student production submission (SPS): store, grade, answer with the feedback */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SpaSubmission"];
                    "multipart/form-data": components["schemas"]["SubmissionUpload"];
                };
            };
            responses: {
                /** @description graded before the reply (sync variants) */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubmissionGraded"];
                    };
                };
                /** @description stored, graded later (async variants): poll GET /api/exercise-production/{ep_id} */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubmissionQueued"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exercise-production/{ep_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One production with its status and feedback */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    ep_id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the production */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Production"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exercise-productions/by-session/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every production of a session (compact rows), for its report (its teacher or an admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    session_id: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the rows */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SessionProductions"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exercise-trial": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run an exercise's grader on a sample archive (its author only); nothing is stored */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": components["schemas"]["TrialUpload"];
                };
            };
            responses: {
                /** @description the grader's outcome */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TrialReply"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description An account as its owner and staff see it (login, verify, users). */
        SessionUser: {
            user_id: number;
            email: string;
            firstname: string;
            lastname: string;
            /** @enum {string} */
            role: "admin" | "teacher" | "student";
        };
        /** @description An exercise of the catalog. */
        Exercise: {
            ex_id: number;
            slug: string;
            name: string;
            statement: string;
            /** @enum {string} */
            state: "draft" | "published" | "archived";
            locale: string;
            skills: string[];
            author_id: number | null;
            /** @description The question archive (.tar.gz), base64; in a single exercise, not in lists. */
            question_archive?: string;
            /** @description Python source of the grader; to staff only. */
            grader_script?: string;
        };
        /** @description An ordered list of exercises. */
        Sequence: {
            sequence_id: number;
            name: string;
            description: string;
            exercises: number[];
            author_id: number | null;
        };
        /** @description A teaching session: a sequence over a period. */
        BusinessSession: {
            session_id: number;
            name: string;
            sequence_id: number;
            /** Format: date-time */
            starts_at: string;
            /** Format: date-time */
            ends_at: string;
            teacher_id: number | null;
            /** @description Only in the answer that set it: the key is stored hashed. */
            enrolment_key?: string;
        };
        /** @description A student's statement of one exercise in one session. */
        Statement: {
            ps_id: number;
            user_id: number;
            session_id: number;
            ex_id: number;
            statement: string;
            /** Format: date-time */
            deadline: string | null;
            /** @description The question archive (.tar.gz), base64; in a single statement, not in lists. */
            question_archive?: string;
        };
        /** @description One numbered check of a grading. */
        FeedbackItem: {
            numQ: number;
            verif: string;
            /** @enum {string} */
            status: "OK" | "NOT OK" | "not tested";
            expl: string;
        };
        /** @description A submitted production and, once graded, its grade and feedback. */
        Production: {
            ep_id: number;
            ex_id: number;
            ps_id: number;
            user_id: number;
            /** @enum {string} */
            status: "received" | "queued" | "grading" | "graded" | "failed";
            grade: number | null;
            comment: components["schemas"]["FeedbackItem"][];
            failure_reason: string | null;
            archive_size: number;
            archive_sha256: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            graded_at: string | null;
        };
        /** @description The answer (201) to a submission graded before the reply. */
        SubmissionGraded: {
            ep_id: number;
            ex_id: number;
            grade: number | null;
            comment: components["schemas"]["FeedbackItem"][];
        };
        /** @description The answer (202) to a submission graded later: poll its production. */
        SubmissionQueued: {
            ep_id: number;
            /** @enum {string} */
            status: "received" | "queued" | "grading" | "graded" | "failed";
            /** @description Submissions waiting ahead of this one. */
            queued_ahead?: number;
            /** @description About how long until it is graded; null before the server has a rate. */
            estimated_wait_s?: number | null;
        };
        /** @description One production of a session's statements. */
        SessionProduction: {
            ep_id: number;
            user_id: number;
            ex_id: number;
            ps_id: number;
            /** @enum {string} */
            status: "received" | "queued" | "grading" | "graded" | "failed";
            grade: number | null;
            /** Format: date-time */
            created_at: string;
        };
        /** @description A session's results (paper 001's S2), computed by the server. */
        SessionReport: {
            session_id: number;
            name: string;
            pass_mark: number;
            totals: {
                students: number;
                exercises: number;
                productions: number;
                graded: number;
                failed: number;
                pending: number;
            };
            /** @description Graded productions per grade bucket. */
            grade_distribution: {
                [key: string]: number;
            };
            mean_grade: number | null;
            exercises: {
                ex_id: number;
                attempts: number;
                students_attempted: number;
                students_passed: number;
                pass_rate: number;
                mean_best_grade: number | null;
            }[];
            students: {
                user_id: number;
                firstname: string;
                lastname: string;
                email: string;
                attempts: number;
                /** @description Best grade per exercise id; null: none graded yet. */
                best_grades: {
                    [key: string]: number | null;
                };
                exercises_passed: number;
                progress: number;
                /** Format: date-time */
                last_submission_at: string | null;
            }[];
        };
        /** @description Every production of a session (compact rows), for its report. */
        SessionProductions: {
            session_id: number;
            productions: components["schemas"]["SessionProduction"][];
        };
        /** @description An exercise's grader run on a sample archive: its grade, or why the grader failed. Nothing is stored. */
        TrialReply: {
            ex_id: number;
            /** @enum {string} */
            outcome: "graded";
            grade: number;
            comment: components["schemas"]["FeedbackItem"][];
        } | {
            ex_id: number;
            /** @enum {string} */
            outcome: "grader-failed";
            reason: string;
            details: {
                [key: string]: unknown;
            };
            /** @description The grader's standard error, bounded: what its author needs to fix it. */
            grader_stderr: string;
        };
        /** @description The students enrolled in a session. */
        Enrolments: {
            session_id: number;
            user_ids: number[];
        };
        /** @description The answer to an enrolment. */
        Enrolled: {
            session_id: number;
            /** @description How many students this request enrolled. */
            enrolled: number;
        };
        /** @description The answer to an unenrolment. */
        Unenrolled: {
            session_id: number;
            user_id: number;
            /** @enum {boolean} */
            unenrolled: true;
        };
        /** @description The answer to a logout: the cookies are cleared either way. */
        LoggedOut: {
            /** @enum {boolean} */
            logged_out: true;
            /** @description Whether a login session was found and revoked. */
            revoked: boolean;
        };
        /** @description An account deleted. */
        UserDeleted: {
            /** @enum {boolean} */
            deleted: true;
            user_id: number;
        };
        /** @description An exercise deleted. */
        ExerciseDeleted: {
            /** @enum {boolean} */
            deleted: true;
            ex_id: number;
        };
        /** @description A sequence deleted. */
        SequenceDeleted: {
            /** @enum {boolean} */
            deleted: true;
            sequence_id: number;
        };
        /** @description A session deleted. */
        BusinessSessionDeleted: {
            /** @enum {boolean} */
            deleted: true;
            session_id: number;
        };
        /** @description A statement deleted. */
        StatementDeleted: {
            /** @enum {boolean} */
            deleted: true;
            ps_id: number;
        };
        /** @description GET /app-config.json: what the web app needs to know of the server that serves it. */
        WebAppConfig: {
            /** @description The largest archive a submission or a trial may carry. */
            maxArchiveBytes: number;
            /** @description The Jaeger relay is on: the console shows traces. */
            traces: boolean;
            /** @description Served by the standalone console (npm run console): its pages only, signed in with its token. */
            standalone: boolean;
        };
        /** @description Log in with an email and a password. */
        LoginRequest: {
            email: string;
            password: string;
        };
        /** @description A new account (admin). */
        NewUser: {
            /** Format: email */
            email: string;
            password: string;
            /** @default  */
            firstname?: string;
            /** @default  */
            lastname?: string;
            /**
             * @default student
             * @enum {string}
             */
            role?: "admin" | "teacher" | "student";
        };
        /** @description The fields to change (admin: any; a user: its own names, and its own password with current_password). */
        UserUpdate: {
            /** Format: email */
            email?: string;
            password?: string;
            firstname?: string;
            lastname?: string;
            /** @enum {string} */
            role?: "admin" | "teacher" | "student";
            current_password?: string;
        };
        /** @description A new exercise; its question archive in base64. */
        NewExercise: {
            slug: string;
            name: string;
            statement: string;
            question_archive: string;
            grader_script: string;
            /**
             * @default draft
             * @enum {string}
             */
            state?: "draft" | "published" | "archived";
            /** @default en */
            locale?: string;
            /** @default [] */
            skills?: string[];
        };
        /** @description The fields of an exercise to change. */
        ExerciseUpdate: {
            slug?: string;
            name?: string;
            statement?: string;
            question_archive?: string;
            grader_script?: string;
            /** @enum {string} */
            state?: "draft" | "published" | "archived";
            locale?: string;
            skills?: string[];
        };
        /** @description A new sequence: its exercises in order. */
        NewSequence: {
            name: string;
            /** @default  */
            description?: string;
            /** @default [] */
            exercises?: number[];
        };
        /** @description The fields of a sequence to change. */
        SequenceUpdate: {
            name?: string;
            description?: string;
            exercises?: number[];
        };
        /** @description A new session; without enrolment_key the server generates one, shown in its answer only. */
        NewBusinessSession: {
            name: string;
            sequence_id: number;
            /** @description An ISO 8601 date, e.g. 2030-06-01T12:00:00Z. */
            starts_at: string;
            /** @description An ISO 8601 date, e.g. 2030-06-01T12:00:00Z. */
            ends_at: string;
            enrolment_key?: string;
            teacher_id?: number;
        };
        /** @description The fields of a session to change. */
        BusinessSessionUpdate: {
            name?: string;
            sequence_id?: number;
            /** @description An ISO 8601 date, e.g. 2030-06-01T12:00:00Z. */
            starts_at?: string;
            /** @description An ISO 8601 date, e.g. 2030-06-01T12:00:00Z. */
            ends_at?: string;
            enrolment_key?: string;
            teacher_id?: number;
        };
        /** @description A student enrols itself with the key; staff enrol students by id. */
        Enrolment: {
            enrolment_key: string;
        } | {
            user_ids: number[];
        };
        /** @description A student's statement of one exercise in one session. */
        NewStatement: {
            user_id: number;
            session_id: number;
            ex_id: number;
            /** @description Defaults to the exercise's statement. */
            statement?: string;
            /** @description Defaults to the exercise's question archive. */
            question_archive?: string;
            /** @description An ISO 8601 date, e.g. 2030-06-01T12:00:00Z. */
            deadline?: string | null;
        };
        /** @description The fields of a statement to change. */
        StatementUpdate: {
            statement?: string;
            question_archive?: string;
            /** @description An ISO 8601 date, e.g. 2030-06-01T12:00:00Z. */
            deadline?: string | null;
        };
        /** @description A submission as a form: the archive and which statement it answers. */
        SubmissionUpload: {
            ex_id: number;
            ps_id: number;
            /**
             * Format: binary
             * @description The archive (.tar.gz).
             */
            file: Blob;
        };
        /** @description A submission as the original SPA sends it. */
        SpaSubmission: {
            ex_id: number;
            ps_id: number;
            production_data: {
                name?: string;
                size?: number;
                /** @description Byte index to byte value, or an array of bytes. */
                data: unknown[] | {
                    [key: string]: unknown;
                };
            };
        };
        /** @description A sample archive to run an exercise's grader on (its author only); nothing is stored. */
        TrialUpload: {
            ex_id: number;
            /**
             * Format: binary
             * @description The archive (.tar.gz).
             */
            file: Blob;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type SessionUser = components['schemas']['SessionUser'];
export type Exercise = components['schemas']['Exercise'];
export type Sequence = components['schemas']['Sequence'];
export type BusinessSession = components['schemas']['BusinessSession'];
export type Statement = components['schemas']['Statement'];
export type FeedbackItem = components['schemas']['FeedbackItem'];
export type Production = components['schemas']['Production'];
export type SubmissionGraded = components['schemas']['SubmissionGraded'];
export type SubmissionQueued = components['schemas']['SubmissionQueued'];
export type SessionProduction = components['schemas']['SessionProduction'];
export type SessionReport = components['schemas']['SessionReport'];
export type SessionProductions = components['schemas']['SessionProductions'];
export type TrialReply = components['schemas']['TrialReply'];
export type Enrolments = components['schemas']['Enrolments'];
export type Enrolled = components['schemas']['Enrolled'];
export type Unenrolled = components['schemas']['Unenrolled'];
export type LoggedOut = components['schemas']['LoggedOut'];
export type UserDeleted = components['schemas']['UserDeleted'];
export type ExerciseDeleted = components['schemas']['ExerciseDeleted'];
export type SequenceDeleted = components['schemas']['SequenceDeleted'];
export type BusinessSessionDeleted = components['schemas']['BusinessSessionDeleted'];
export type StatementDeleted = components['schemas']['StatementDeleted'];
export type WebAppConfig = components['schemas']['WebAppConfig'];
export type LoginRequest = components['schemas']['LoginRequest'];
export type NewUser = components['schemas']['NewUser'];
export type UserUpdate = components['schemas']['UserUpdate'];
export type NewExercise = components['schemas']['NewExercise'];
export type ExerciseUpdate = components['schemas']['ExerciseUpdate'];
export type NewSequence = components['schemas']['NewSequence'];
export type SequenceUpdate = components['schemas']['SequenceUpdate'];
export type NewBusinessSession = components['schemas']['NewBusinessSession'];
export type BusinessSessionUpdate = components['schemas']['BusinessSessionUpdate'];
export type Enrolment = components['schemas']['Enrolment'];
export type NewStatement = components['schemas']['NewStatement'];
export type StatementUpdate = components['schemas']['StatementUpdate'];
export type SubmissionUpload = components['schemas']['SubmissionUpload'];
export type SpaSubmission = components['schemas']['SpaSubmission'];
export type TrialUpload = components['schemas']['TrialUpload'];
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
