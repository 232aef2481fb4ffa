/**
 * The page routes of spec section 2. The web builds its route table from these; the server uses them
 * for links it writes into mails (invite links, sign-in links).
 */
export const PATHS = {
  home: '/',
  login: '/login',
  register: '/register',
  resetPassword: '/resetpassword',
  exchange: '/exchange',
  exchangeDetail: '/exchangeDetail',
  exchangeNo: '/exchangeNo',
  calculator: '/calculator',
  serviceIntro: '/serviceIntro',
  serviceIntroMore: '/serviceIntroMore',
  serviceIntroInvite: '/serviceIntroInvite',
  invitation: '/invitation',
  testIntroduce: '/test/introduce',
  uidLinking: '/uidlinking',
  withdrawal: '/withdrawal',
  exchangeLinkDetail: '/exchangeLinkDetail',
  myPage: '/mypage',
  myPageSettings: '/mypage/settings',
  myPageChangePassword: '/mypage/changepassword',
  myPageRewardHistory: '/mypage/rewardHistory',
  myPageMakeFriend: '/mypage/makefriend',
  myPageRecords: '/mypage/records',
  myPagePoint: '/mypage/point',
  /** Support requests and UID disputes (issue 11): the list, `/new` (query kind, platId, uid), `/:id`. */
  myPageSupport: '/mypage/support',
} as const;
export type PagePath = (typeof PATHS)[keyof typeof PATHS];

/** Routes a visitor may not open: the guard sends them to /login?redirect=. */
export const MEMBER_PATHS: readonly string[] = [
  PATHS.uidLinking,
  PATHS.withdrawal,
  PATHS.exchangeLinkDetail,
  PATHS.myPage,
];

/** spec: /test/introduce is not tracked by analytics. */
export const UNTRACKED_PATHS: readonly string[] = [PATHS.testIntroduce];

export function isMemberPath(pathname: string): boolean {
  return MEMBER_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}
