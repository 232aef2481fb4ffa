import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useIsLoggedIn } from '../../shared/hooks/use-is-logged-in';
import { storage } from '../../shared/storage';
import { MemberSummary } from './components/member-summary';
import { VisitorHome } from './visitor-home';
import './home.css';

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
  return <VisitorHome memberSummary={isLoggedIn ? <MemberSummary /> : null} />;
}
