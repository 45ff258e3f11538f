import { useParams } from 'react-router';
import { api } from '../api';
import { ErrorMessage, Feedback, formatBytes, formatDate, Loading, Page, useLoad } from '../ui';
import { ProductionTable } from './ExercisePage';

export function History() {
  const { data, error, loading } = useLoad(async () => {
    const [rows, exercises] = await Promise.all([api.productions(), api.exercises()]);
    return { rows, names: new Map(exercises.map((e) => [e.ex_id, e.name])) };
  }, []);
  return (
    <Page title="My productions">
      <ErrorMessage error={error} />
      {loading && <Loading what="your productions" />}
      {data && <ProductionTable rows={data.rows} names={data.names} />}
    </Page>
  );
}

export function ProductionPage() {
  const epId = Number(useParams().epId);
  const { data, error, loading } = useLoad(() => api.production(epId), [epId]);
  return (
    <Page title={`Production #${epId}`}>
      <ErrorMessage error={error} />
      {loading && <Loading what="the production" />}
      {data && (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd>{data.status}</dd>
            <dt>Sent</dt>
            <dd>{formatDate(data.created_at)}</dd>
            <dt>Graded</dt>
            <dd>{formatDate(data.graded_at)}</dd>
            <dt>Archive</dt>
            <dd>{formatBytes(data.archive_size)}</dd>
          </dl>
          {data.failure_reason && (
            <p role="alert" className="error">
              {data.failure_reason}
            </p>
          )}
          <Feedback grade={data.grade} comment={data.comment} />
        </>
      )}
    </Page>
  );
}
