import { PendingPage } from '../../shared/ui/pending-page';

export default function IntroducePage() {
  return <PendingPage pageKey="testIntroduce" />;
}
