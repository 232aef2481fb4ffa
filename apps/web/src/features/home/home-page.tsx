import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { deferredComponent, useDeferredComponent } from '../../shared/deferred-component';
import { useIsLoggedIn } from '../../shared/hooks/use-is-logged-in';
import { storage } from '../../shared/storage';
import { Skeleton } from '../../shared/ui/skeleton';
import { VisitorHome } from './visitor-home';
import './home.css';

// Members only: a visitor's first paint does without its code, a member's loads beside their figures.
const memberSummary = deferredComponent(async () => {
  const [{ MemberSummary }, { withQueryScope }] = await Promise.all([
    import('./components/member-summary'),
    import('../../shared/queries/query-scope'),
  ]);
  return { default: withQueryScope(MemberSummary) };
});

function DeferredMemberSummary() {
  const MemberSummary = useDeferredComponent(memberSummary);
  // What the summary shows while the member's figures load.
  return MemberSummary ? <MemberSummary /> : <Skeleton lines={4} />;
}

/** spec section 2: on load, if no encr referral value is stored, the one in the address is stored. */
function useStoreEncr() {
  const [params] = useSearchParams();
  const encr = params.get('encr')?.trim();
  useEffect(() => {
    if (encr && !storage.getEncr()) storage.setEncr(encr);
  }, [encr]);
}

export default function HomePage() {
  useStoreEncr();
  const isLoggedIn = useIsLoggedIn();
  // Members see their balances first (spec section 2); the partner rankings stay below for everyone.
  return <VisitorHome memberSummary={isLoggedIn ? <DeferredMemberSummary /> : null} />;
}
