// Generated from the OpenAPI contract (libs/api-contract) by apps/web/api-types.mjs: do not edit.
export type paths = Record<string, never>;
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
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
