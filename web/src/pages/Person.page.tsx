import { Navigate, useParams } from 'react-router-dom';
import { PersonScreen } from '../features/people';

/** /people/:id: one person's page. The screen is the feature's; the page only places it. */
export function PersonPage() {
  const { id } = useParams();
  if (!id) return <Navigate to="/people" replace />;
  // A new screen for each person, so nothing of the last one stays.
  return <PersonScreen key={id} id={id} />;
}
