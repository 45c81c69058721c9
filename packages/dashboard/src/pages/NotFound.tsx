// The page for a path the dashboard does not know.
import { Layout } from '../components/Layout.tsx';
import { Link } from '../components/Link.tsx';
import { paths } from '../lib/router.ts';

export function NotFound() {
  return (
    <Layout title="Not found">
      <h1>Nothing here</h1>
      <p>
        This address shows no page. Go to the <Link href={paths.schedules()}>schedules</Link>.
      </p>
    </Layout>
  );
}
