import type { ADMIN_API } from './admin-api-paths.js';

/**
 * The path of every API call by name (issue 16): the one place a path is written. The web calls
 * `apiCall(API.userLogin, …)`; the endpoint table (endpoints.ts, server side) adds each call's method,
 * auth and schemas, and a server test holds the table to the registered routes. The console's calls
 * are in admin-api-paths.ts (ADMIN_API): a module of their own, so the member's pages do not carry them.
 */
export const API = {
  track: '/elex/track',
  userVerifyEmail: '/elex/user/verifyEmail',
  userCheckEncr: '/elex/user/checkEncr',
  userVerifyCode: '/elex/user/verifyCode',
  userVerifyCode2: '/elex/user/verifyCode2',
  userRegister: '/elex/user/register',
  userLogin: '/elex/user/login',
  userChangePasswd: '/elex/user/changePasswd',
  userUpdatePass: '/elex/user/updatePass',
  userLogout: '/elex/user/logout',
  userDeleteAccount: '/elex/user/deleteAccount',
  userGetSettings: '/elex/user/getSettings',
  userSaveSettings: '/elex/user/saveSettings',
  userProfile: '/elex/user/profile',
  exchangeIndex: '/elex/exchange/index',
  userConfigResJson: '/elex/user/config/res.json',
  exchangeDetail: '/elex/exchange/detail',
  exchangeEstimate: '/elex/exchange/estimate',
  userIsSignTody: '/elex/user/isSignTody',
  activitySign: '/elex/activity/sign',
  activitySignHistory: '/elex/activity/signHistory',
  activityPointsHistory: '/elex/activity/pointsHistory',
  exchangeGetExchangeTaskDetail: '/elex/exchange/getExchangeTaskDetail',
  exchangeReceiveScore: '/elex/exchange/receiveScore',
  exchangeFetchMetiaTaskStatus: '/elex/exchange/fetchMetiaTaskStatus',
  userGetMyInviteCode: '/elex/user/getMyInviteCode',
  userGetInviteLink: '/elex/user/getInviteLink',
  userMyFriends: '/elex/user/myFriends',
  userVerifyExchangeUid: '/elex/user/verifyExchangeUid',
  userBindExchangeUid: '/elex/user/bindExchangeUid',
  userBindXmeUid: '/elex/user/bindXmeUid',
  userMyInfo: '/elex/user/myInfo',
  userSeeRebateByExchangeId: '/elex/user/seeRebateByExchangeId',
  userSeeRebateData: '/elex/user/seeRebateData',
  exchangeExpireRebate: '/elex/exchange/expireRebate',
  userSeeRewardData: '/elex/user/seeRewardData',
  userSeeAdjustments: '/elex/user/seeAdjustments',
  supportCreate: '/elex/support/create',
  supportList: '/elex/support/list',
  supportDetail: '/elex/support/detail',
  supportReply: '/elex/support/reply',
  userWithdrawable: '/elex/user/withdrawable',
  userDepositVerifyEmail: '/elex/user/depositVerifyEmail',
  userApplyDeposit: '/elex/user/applyDeposit',
  exchangeDepositRecord: '/elex/exchange/depositRecord',
  userCancelDeposit: '/elex/user/cancelDeposit',
} as const;

export type ApiName = keyof typeof API | keyof typeof ADMIN_API;
