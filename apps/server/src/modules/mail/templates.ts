import {
  CodeModule,
  type Locale,
  PATHS,
  POLYGON_EXPLORER_TX_URL,
  type SupportKind,
  type SupportResolution,
} from '@elex/contract';
import { escapeHtml } from '../../lib/html.js';
import { type AlertMailParams, type AlertMailTemplate, renderAlertMail } from '../alerts/alert-mails.js';

/**
 * The mails the product sends, in the request's language (en, zh, ko), each as plain text and HTML.
 * Parameters arrive decrypted from the outbox at send time; nothing here is stored.
 */
export interface MailParams extends AlertMailParams {
  verificationCode: { code: string; module: CodeModule; validMinutes: number };
  passwordChanged: { kind: 'reset' | 'change'; at: string; withdrawalLockedUntil: string };
  accountDeleted: { at: string };
  /** Withdrawals (docs/withdrawals.md): amounts are USDT decimal strings, times ISO. */
  withdrawalRequested: WithdrawalMailParams & { reviewHours: number };
  withdrawalCompleted: WithdrawalMailParams & { txHash: string };
  withdrawalRejected: WithdrawalMailParams & { reason: string };
  /** A UID the member waited for joined the exchange's roster (docs/cashback.md, "Late rosters"). */
  uidListed: { exchange: string; platId: number; uid: string };
  /** An operator answered or decided a support request (docs/support.md). */
  supportAnswered: {
    requestId: number;
    kind: SupportKind;
    uid: string | null;
    /** The operator's words, or null for a decision without any. */
    text: string | null;
    /** Set when the request was closed by this decision. */
    resolution: SupportResolution | null;
  };
  /**
   * To the member who holds a disputed UID (docs/support.md): a dispute froze it, or was decided.
   * The claimant is never named. `stillFrozen`: another dispute of the UID is still open.
   */
  uidDisputeNotice: {
    exchange: string;
    platId: number;
    uid: string;
    event: UidDisputeEvent;
    stillFrozen: boolean;
  };
}

/** What happened to a dispute of the holder's UID: opened, or decided by one of the console's actions. */
export type UidDisputeEvent = 'opened' | SupportResolution;

export interface WithdrawalMailParams {
  amount: string;
  address: string;
  exchange: string;
  uid: string;
  at: string;
}
export type MailTemplate = keyof MailParams;
const MAIL_TEMPLATES: readonly MailTemplate[] = [
  'verificationCode',
  'passwordChanged',
  'accountDeleted',
  'withdrawalRequested',
  'withdrawalCompleted',
  'withdrawalRejected',
  'uidListed',
  'supportAnswered',
  'uidDisputeNotice',
  // Operators' alerts (alerts/alert-mails.ts).
  'alertWithdrawalRequested',
  'alertSyncFailing',
  'alertLedgerBroken',
  'alertDailySummary',
  'alertPayoutWalletShort',
  'alertPayoutStuck',
  'alertClockSkew',
];

export function isMailTemplate(value: string): value is MailTemplate {
  return (MAIL_TEMPLATES as readonly string[]).includes(value);
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Copy {
  product: string;
  greeting: string;
  signOff: string;
  purpose: Record<CodeModule, string>;
  codeSubject: (code: string) => string;
  codeIntro: (purpose: string) => string;
  codeValidity: (minutes: number) => string;
  codeIgnore: string;
  passwordSubject: string;
  passwordBody: (kind: 'reset' | 'change', at: string) => string;
  passwordLock: (until: string) => string;
  passwordNotYou: string;
  deletedSubject: string;
  deletedBody: (at: string) => string;
  deletedFinal: string;
  withdrawal: {
    details: (params: WithdrawalMailParams) => string;
    requestedSubject: (amount: string) => string;
    requestedBody: (at: string) => string;
    requestedReview: (hours: number) => string;
    requestedNotYou: string;
    completedSubject: (amount: string) => string;
    completedBody: (at: string) => string;
    completedTx: string;
    rejectedSubject: (amount: string) => string;
    rejectedBody: (at: string) => string;
    rejectedReason: (reason: string) => string;
    rejectedReturned: string;
    rejectedLink: string;
  };
  listedSubject: (exchange: string, uid: string) => string;
  listedBody: (exchange: string, uid: string) => string;
  listedLink: string;
  support: {
    subject: (id: number) => string;
    kind: Record<SupportKind, string>;
    about: (kind: string, uid: string | null) => string;
    answered: string;
    resolution: Record<SupportResolution, string>;
    link: string;
  };
  dispute: {
    openedSubject: (exchange: string, uid: string) => string;
    decidedSubject: (exchange: string, uid: string) => string;
    event: Record<UidDisputeEvent, (exchange: string, uid: string) => string>;
    unfrozen: string;
    stillFrozen: string;
    /** Where the holder answers: an ownership request while they hold it, a dispute once moved. */
    openedLink: string;
    movedLink: string;
  };
  automatic: string;
}

const COPY: Record<Locale, Copy> = {
  en: {
    product: 'Elex Cashback',
    greeting: 'Hello,',
    signOff: 'The Elex Cashback team',
    purpose: {
      [CodeModule.Login]: 'to log in',
      [CodeModule.Register]: 'to create your account',
      [CodeModule.ResetPassword]: 'to reset your password',
      [CodeModule.OwnAddress]: 'to confirm your request',
    },
    codeSubject: (code) => `Your verification code: ${code}`,
    codeIntro: (purpose) => `Here is your Elex Cashback verification code ${purpose}:`,
    codeValidity: (minutes) => `It is valid for ${minutes} minutes and works once.`,
    codeIgnore: 'If you did not ask for it, ignore this e-mail. Never share the code with anyone.',
    passwordSubject: 'Your Elex Cashback password was changed',
    passwordBody: (kind, at) =>
      kind === 'reset'
        ? `The password of your Elex Cashback account was reset on ${at}. You have been logged out everywhere.`
        : `The password of your Elex Cashback account was changed on ${at}. Your other sessions have been logged out.`,
    passwordLock: (until) => `For your safety, withdrawals are locked until ${until}.`,
    passwordNotYou: 'If this was not you, reset your password right away:',
    deletedSubject: 'Your Elex Cashback account has been deleted',
    deletedBody: (at) => `Your Elex Cashback account was deleted on ${at}, as you asked.`,
    deletedFinal:
      'Your personal data has been erased. Rewards and points are lost, and this e-mail address cannot be used to register again.',
    withdrawal: {
      details: ({ amount, address, exchange, uid }) =>
        `Amount: ${amount} USDT\nFrom: ${exchange} UID ${uid}\nTo (Polygon): ${address}`,
      requestedSubject: (amount) => `Withdrawal of ${amount} USDT requested`,
      requestedBody: (at) => `You asked on ${at} to withdraw USDT to a Polygon address:`,
      requestedReview: (hours) =>
        `We review and pay withdrawals within ${hours} hours and write to you when it is done. Check that the address is yours: a payment on the blockchain cannot be undone.`,
      requestedNotYou: 'If this was not you, cancel the withdrawal and change your password right away:',
      completedSubject: (amount) => `Your withdrawal of ${amount} USDT has been paid`,
      completedBody: (at) => `Your withdrawal was paid on ${at}:`,
      completedTx: 'See the transaction on Polygonscan:',
      rejectedSubject: (amount) => `Your withdrawal of ${amount} USDT was not paid`,
      rejectedBody: (at) => `Your withdrawal failed on ${at}:`,
      rejectedReason: (reason) => `Reason: ${reason}`,
      rejectedReturned: 'The full amount is back in your balance; you can ask again at any time.',
      rejectedLink: 'Your withdrawals:',
    },
    listedSubject: (exchange, uid) => `Your ${exchange} UID ${uid} can now be bound`,
    listedBody: (exchange, uid) =>
      `${exchange} now lists UID ${uid} among the accounts opened with our referral code. Bind it to start collecting its cashback; trades made before binding are counted too.`,
    listedLink: 'Bind it here:',
    support: {
      subject: (id) => `Your support request #${id} has an answer`,
      kind: {
        uidBoundByOther: 'a UID bound by someone else',
        ownership: 'proving a UID is yours',
        missingCashback: 'missing cashback',
        withdrawal: 'a withdrawal',
        account: 'your account',
        other: 'another question',
      },
      about: (kind, uid) => `Your request about ${kind}${uid ? ` (UID ${uid})` : ''}:`,
      answered: 'Our support team wrote:',
      resolution: {
        moved:
          'We confirmed the UID is yours: it is now bound to your account with its balance, and can be withdrawn.',
        verified: 'We confirmed the UID belongs to the member who holds it. The request is closed.',
        closed: 'The request is closed. You can open a new one at any time.',
      },
      link: 'Read and answer the conversation:',
    },
    dispute: {
      openedSubject: (exchange, uid) => `Your ${exchange} UID ${uid} is under an ownership review`,
      decidedSubject: (exchange, uid) => `The ownership review of your ${exchange} UID ${uid} is decided`,
      event: {
        opened: (exchange, uid) =>
          `Another member says that ${exchange} UID ${uid}, bound to your account, is theirs. While our team reviews it, its cashback cannot be withdrawn; it keeps earning cashback as before.`,
        moved: (exchange, uid) =>
          `Our team found that ${exchange} UID ${uid} belongs to the member who disputed it. It is no longer bound to your account, and its balance went with it.`,
        closed: (exchange, uid) =>
          `The dispute about ${exchange} UID ${uid} was closed without a change: it stays bound to your account.`,
        verified: (exchange, uid) =>
          `Our team confirmed that ${exchange} UID ${uid} is yours: it stays bound to your account.`,
      },
      unfrozen: 'Its withdrawals are no longer frozen.',
      stillFrozen:
        'Another dispute about it is still open, so its withdrawals stay frozen until that one is decided.',
      openedLink: 'If the UID is yours, send us a screenshot of the exchange account page that shows it:',
      movedLink: 'If you think this is wrong, tell us here:',
    },
    automatic: 'This is an automatic message; replies are not read.',
  },
  zh: {
    product: 'Elex 返佣',
    greeting: '您好，',
    signOff: 'Elex 返佣团队',
    purpose: {
      [CodeModule.Login]: '（用于登录）',
      [CodeModule.Register]: '（用于注册账户）',
      [CodeModule.ResetPassword]: '（用于重置密码）',
      [CodeModule.OwnAddress]: '（用于确认您的操作）',
    },
    codeSubject: (code) => `您的验证码：${code}`,
    codeIntro: (purpose) => `这是您的 Elex 返佣验证码${purpose}：`,
    codeValidity: (minutes) => `验证码 ${minutes} 分钟内有效，且只能使用一次。`,
    codeIgnore: '如果这不是您本人的操作，请忽略此邮件。请勿将验证码告诉任何人。',
    passwordSubject: '您的 Elex 返佣密码已修改',
    passwordBody: (kind, at) =>
      kind === 'reset'
        ? `您的 Elex 返佣账户密码已于 ${at} 重置，所有设备均已退出登录。`
        : `您的 Elex 返佣账户密码已于 ${at} 修改，其他设备均已退出登录。`,
    passwordLock: (until) => `为了您的账户安全，提现功能将锁定至 ${until}。`,
    passwordNotYou: '如果这不是您本人的操作，请立即重置密码：',
    deletedSubject: '您的 Elex 返佣账户已注销',
    deletedBody: (at) => `根据您的申请，您的 Elex 返佣账户已于 ${at} 注销。`,
    deletedFinal: '您的个人数据已被删除，奖励和积分已清零，此邮箱地址不能再次注册。',
    withdrawal: {
      details: ({ amount, address, exchange, uid }) =>
        `金额：${amount} USDT\n来源：${exchange} UID ${uid}\n收款地址（Polygon）：${address}`,
      requestedSubject: (amount) => `已提交 ${amount} USDT 提现申请`,
      requestedBody: (at) => `您于 ${at} 申请将 USDT 提现到以下 Polygon 地址：`,
      requestedReview: (hours) =>
        `我们会在 ${hours} 小时内审核并支付，完成后将邮件通知您。请确认地址属于您本人：区块链上的转账无法撤回。`,
      requestedNotYou: '如果这不是您本人的操作，请立即取消该提现并修改密码：',
      completedSubject: (amount) => `您的 ${amount} USDT 提现已支付`,
      completedBody: (at) => `您的提现已于 ${at} 支付：`,
      completedTx: '在 Polygonscan 上查看该交易：',
      rejectedSubject: (amount) => `您的 ${amount} USDT 提现未能支付`,
      rejectedBody: (at) => `您的提现于 ${at} 失败：`,
      rejectedReason: (reason) => `原因：${reason}`,
      rejectedReturned: '全部金额已退回您的余额，您可以随时重新申请。',
      rejectedLink: '您的提现记录：',
    },
    listedSubject: (exchange, uid) => `您的 ${exchange} UID ${uid} 现在可以绑定了`,
    listedBody: (exchange, uid) =>
      `${exchange} 的推荐名单中已出现 UID ${uid}（通过我们的推荐码注册的账户）。绑定后即可开始领取返佣，绑定前的交易也会计入。`,
    listedLink: '在此绑定：',
    support: {
      subject: (id) => `您的客服请求 #${id} 已有答复`,
      kind: {
        uidBoundByOther: 'UID 被他人绑定',
        ownership: '证明 UID 属于您',
        missingCashback: '返佣缺失',
        withdrawal: '提现',
        account: '您的账户',
        other: '其他问题',
      },
      about: (kind, uid) => `您关于"${kind}"${uid ? `（UID ${uid}）` : ''}的请求：`,
      answered: '我们的客服团队回复：',
      resolution: {
        moved: '我们已确认该 UID 属于您：它已连同余额绑定到您的账户，可以提现。',
        verified: '我们已确认该 UID 属于当前绑定它的会员。该请求已关闭。',
        closed: '该请求已关闭。您可以随时提交新的请求。',
      },
      link: '查看并回复对话：',
    },
    dispute: {
      openedSubject: (exchange, uid) => `您的 ${exchange} UID ${uid} 正在进行归属审核`,
      decidedSubject: (exchange, uid) => `您的 ${exchange} UID ${uid} 的归属审核已有结果`,
      event: {
        opened: (exchange, uid) =>
          `另一位会员声称绑定在您账户上的 ${exchange} UID ${uid} 属于他们。在我们的团队审核期间，该 UID 的返佣暂时无法提现；返佣仍会照常累计。`,
        moved: (exchange, uid) =>
          `我们的团队确认 ${exchange} UID ${uid} 属于提出争议的会员。它已不再绑定到您的账户，其余额也一并转出。`,
        closed: (exchange, uid) =>
          `关于 ${exchange} UID ${uid} 的争议已关闭，未作任何变更：它仍绑定在您的账户上。`,
        verified: (exchange, uid) => `我们的团队已确认 ${exchange} UID ${uid} 属于您：它仍绑定在您的账户上。`,
      },
      unfrozen: '该 UID 的提现已解除冻结。',
      stillFrozen: '关于该 UID 的另一项争议仍在处理中，在其有结果之前，该 UID 的提现仍被冻结。',
      openedLink: '如果该 UID 属于您，请发送显示该 UID 的交易所账户页面截图给我们：',
      movedLink: '如果您认为有误，请在此告诉我们：',
    },
    automatic: '此邮件由系统自动发送，请勿回复。',
  },
  ko: {
    product: 'Elex 캐시백',
    greeting: '안녕하세요,',
    signOff: 'Elex 캐시백 팀',
    purpose: {
      [CodeModule.Login]: '(로그인용)',
      [CodeModule.Register]: '(회원가입용)',
      [CodeModule.ResetPassword]: '(비밀번호 재설정용)',
      [CodeModule.OwnAddress]: '(요청 확인용)',
    },
    codeSubject: (code) => `인증 코드: ${code}`,
    codeIntro: (purpose) => `Elex 캐시백 인증 코드${purpose}입니다:`,
    codeValidity: (minutes) => `${minutes}분 동안 유효하며 한 번만 사용할 수 있습니다.`,
    codeIgnore: '요청하지 않으셨다면 이 메일을 무시해 주세요. 인증 코드를 누구에게도 알려 주지 마세요.',
    passwordSubject: 'Elex 캐시백 비밀번호가 변경되었습니다',
    passwordBody: (kind, at) =>
      kind === 'reset'
        ? `Elex 캐시백 계정의 비밀번호가 ${at}에 재설정되었습니다. 모든 기기에서 로그아웃되었습니다.`
        : `Elex 캐시백 계정의 비밀번호가 ${at}에 변경되었습니다. 다른 기기에서는 로그아웃되었습니다.`,
    passwordLock: (until) => `계정 보호를 위해 ${until}까지 출금이 제한됩니다.`,
    passwordNotYou: '본인이 변경하지 않았다면 즉시 비밀번호를 재설정해 주세요:',
    deletedSubject: 'Elex 캐시백 계정이 삭제되었습니다',
    deletedBody: (at) => `요청하신 대로 Elex 캐시백 계정이 ${at}에 삭제되었습니다.`,
    deletedFinal:
      '개인 정보는 삭제되었으며 보상과 포인트는 소멸되었습니다. 이 이메일 주소로는 다시 가입할 수 없습니다.',
    withdrawal: {
      details: ({ amount, address, exchange, uid }) =>
        `금액: ${amount} USDT\n출처: ${exchange} UID ${uid}\n받는 주소(Polygon): ${address}`,
      requestedSubject: (amount) => `${amount} USDT 출금이 신청되었습니다`,
      requestedBody: (at) => `${at}에 다음 Polygon 주소로 USDT 출금을 신청하셨습니다:`,
      requestedReview: (hours) =>
        `출금은 ${hours}시간 이내에 검토 후 지급되며, 완료되면 메일로 알려 드립니다. 주소가 본인의 것인지 확인해 주세요. 블록체인 송금은 되돌릴 수 없습니다.`,
      requestedNotYou: '본인이 신청하지 않았다면 즉시 출금을 취소하고 비밀번호를 변경해 주세요:',
      completedSubject: (amount) => `${amount} USDT 출금이 지급되었습니다`,
      completedBody: (at) => `출금이 ${at}에 지급되었습니다:`,
      completedTx: 'Polygonscan에서 거래 보기:',
      rejectedSubject: (amount) => `${amount} USDT 출금이 지급되지 않았습니다`,
      rejectedBody: (at) => `출금이 ${at}에 실패했습니다:`,
      rejectedReason: (reason) => `사유: ${reason}`,
      rejectedReturned: '전액이 잔액으로 반환되었습니다. 언제든지 다시 신청할 수 있습니다.',
      rejectedLink: '출금 내역:',
    },
    listedSubject: (exchange, uid) => `${exchange} UID ${uid}를 이제 연동할 수 있습니다`,
    listedBody: (exchange, uid) =>
      `${exchange}의 추천 명단에 UID ${uid}가 나타났습니다(저희 추천 코드로 가입한 계정). 연동하면 캐시백을 받기 시작하며, 연동 전의 거래도 포함됩니다.`,
    listedLink: '여기에서 연동하세요:',
    support: {
      subject: (id) => `고객 지원 요청 #${id}에 답변이 도착했습니다`,
      kind: {
        uidBoundByOther: '다른 사람이 연동한 UID',
        ownership: 'UID 소유 증명',
        missingCashback: '누락된 캐시백',
        withdrawal: '출금',
        account: '회원님의 계정',
        other: '기타 문의',
      },
      about: (kind, uid) => `'${kind}'${uid ? ` (UID ${uid})` : ''}에 관한 요청:`,
      answered: '고객 지원팀 답변:',
      resolution: {
        moved:
          'UID가 회원님의 것임을 확인했습니다. 이제 잔액과 함께 회원님의 계정에 연동되었으며 출금할 수 있습니다.',
        verified: 'UID가 현재 연동한 회원의 것임을 확인했습니다. 요청을 종료합니다.',
        closed: '요청이 종료되었습니다. 언제든지 새 요청을 보낼 수 있습니다.',
      },
      link: '대화 보기 및 답장:',
    },
    dispute: {
      openedSubject: (exchange, uid) => `회원님의 ${exchange} UID ${uid}에 대한 소유권 검토가 진행 중입니다`,
      decidedSubject: (exchange, uid) =>
        `회원님의 ${exchange} UID ${uid}에 대한 소유권 검토 결과가 나왔습니다`,
      event: {
        opened: (exchange, uid) =>
          `다른 회원이 회원님의 계정에 연동된 ${exchange} UID ${uid}가 자신의 것이라고 분쟁을 신청했습니다. 저희 팀이 검토하는 동안 이 UID의 캐시백은 출금할 수 없으며, 캐시백은 평소처럼 계속 적립됩니다.`,
        moved: (exchange, uid) =>
          `저희 팀은 ${exchange} UID ${uid}가 분쟁을 신청한 회원의 것임을 확인했습니다. 이 UID는 더 이상 회원님의 계정에 연동되어 있지 않으며, 잔액도 함께 이전되었습니다.`,
        closed: (exchange, uid) =>
          `${exchange} UID ${uid}에 대한 분쟁이 변경 없이 종료되었습니다. UID는 계속 회원님의 계정에 연동되어 있습니다.`,
        verified: (exchange, uid) =>
          `저희 팀은 ${exchange} UID ${uid}가 회원님의 것임을 확인했습니다. UID는 계속 회원님의 계정에 연동되어 있습니다.`,
      },
      unfrozen: '이 UID의 출금 동결이 해제되었습니다.',
      stillFrozen: '이 UID에 대한 다른 분쟁이 아직 진행 중이어서, 그 결과가 나올 때까지 출금이 동결됩니다.',
      openedLink: 'UID가 회원님의 것이라면 UID가 표시된 거래소 계정 화면의 스크린샷을 보내 주세요:',
      movedLink: '잘못되었다고 생각하시면 여기에서 알려 주세요:',
    },
    automatic: '이 메일은 자동으로 발송되었으며 회신은 확인되지 않습니다.',
  },
};

const INTL_LOCALE: Record<Locale, string> = { en: 'en-GB', zh: 'zh-CN', ko: 'ko-KR' };

/** Times in mails are UTC and say so: the server does not know the reader's zone. */
function formatTime(locale: Locale, iso: string): string {
  const formatted = new Intl.DateTimeFormat(INTL_LOCALE[locale], {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(iso));
  return `${formatted} UTC`;
}

/** One block of a mail: a paragraph, or the code shown large. */
type Block =
  | { kind: 'p'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'link'; text: string; url: string };

function compose(locale: Locale, copy: Copy, subject: string, blocks: Block[]): RenderedMail {
  const all: Block[] = [
    { kind: 'p', text: copy.greeting },
    ...blocks,
    { kind: 'p', text: copy.signOff },
    { kind: 'p', text: copy.automatic },
  ];
  const text = all
    .map((block) => (block.kind === 'link' ? `${block.text} ${block.url}` : block.text))
    .join('\n\n');
  const body = all
    .map((block) => {
      if (block.kind === 'code') {
        return `<p style="font:700 28px/1.2 ui-monospace,Menlo,Consolas,monospace;letter-spacing:6px;margin:24px 0">${escapeHtml(block.text)}</p>`;
      }
      if (block.kind === 'link') {
        return `<p>${escapeHtml(block.text)} <a href="${escapeHtml(block.url)}">${escapeHtml(block.url)}</a></p>`;
      }
      // A paragraph may hold several lines (a withdrawal's amount, source and address).
      return `<p>${escapeHtml(block.text).replaceAll('\n', '<br>')}</p>`;
    })
    .join('\n');
  const html = `<!doctype html>
<html lang="${locale}">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font:15px/1.6 -apple-system,'Segoe UI',Roboto,'PingFang SC','Malgun Gothic',sans-serif;color:#1d2129">
<div style="max-width:520px;margin:0 auto;background:#fff;border-radius:8px;padding:24px 28px">
<h1 style="font-size:18px;margin:0 0 16px">${escapeHtml(copy.product)}</h1>
${body}
</div>
</body>
</html>`;
  return { subject, text, html };
}

export function renderMail<T extends MailTemplate>(
  template: T,
  locale: Locale,
  params: MailParams[T],
  appUrl: string,
): RenderedMail {
  const copy = COPY[locale];
  switch (template) {
    case 'verificationCode': {
      const { code, module, validMinutes } = params as MailParams['verificationCode'];
      return compose(locale, copy, copy.codeSubject(code), [
        { kind: 'p', text: copy.codeIntro(copy.purpose[module]) },
        { kind: 'code', text: code },
        { kind: 'p', text: copy.codeValidity(validMinutes) },
        { kind: 'p', text: copy.codeIgnore },
      ]);
    }
    case 'passwordChanged': {
      const { kind, at, withdrawalLockedUntil } = params as MailParams['passwordChanged'];
      const resetUrl = `${appUrl}${PATHS.resetPassword}`;
      return compose(locale, copy, copy.passwordSubject, [
        { kind: 'p', text: copy.passwordBody(kind, formatTime(locale, at)) },
        { kind: 'p', text: copy.passwordLock(formatTime(locale, withdrawalLockedUntil)) },
        { kind: 'link', text: copy.passwordNotYou, url: resetUrl },
      ]);
    }
    case 'accountDeleted': {
      const { at } = params as MailParams['accountDeleted'];
      return compose(locale, copy, copy.deletedSubject, [
        { kind: 'p', text: copy.deletedBody(formatTime(locale, at)) },
        { kind: 'p', text: copy.deletedFinal },
      ]);
    }
    case 'withdrawalRequested': {
      const request = params as MailParams['withdrawalRequested'];
      return compose(locale, copy, copy.withdrawal.requestedSubject(request.amount), [
        { kind: 'p', text: copy.withdrawal.requestedBody(formatTime(locale, request.at)) },
        { kind: 'p', text: copy.withdrawal.details(request) },
        { kind: 'p', text: copy.withdrawal.requestedReview(request.reviewHours) },
        { kind: 'link', text: copy.withdrawal.requestedNotYou, url: `${appUrl}${PATHS.withdrawal}` },
      ]);
    }
    case 'withdrawalCompleted': {
      const paid = params as MailParams['withdrawalCompleted'];
      return compose(locale, copy, copy.withdrawal.completedSubject(paid.amount), [
        { kind: 'p', text: copy.withdrawal.completedBody(formatTime(locale, paid.at)) },
        { kind: 'p', text: copy.withdrawal.details(paid) },
        { kind: 'link', text: copy.withdrawal.completedTx, url: `${POLYGON_EXPLORER_TX_URL}${paid.txHash}` },
      ]);
    }
    case 'withdrawalRejected': {
      const rejected = params as MailParams['withdrawalRejected'];
      return compose(locale, copy, copy.withdrawal.rejectedSubject(rejected.amount), [
        { kind: 'p', text: copy.withdrawal.rejectedBody(formatTime(locale, rejected.at)) },
        { kind: 'p', text: copy.withdrawal.details(rejected) },
        { kind: 'p', text: copy.withdrawal.rejectedReason(rejected.reason) },
        { kind: 'p', text: copy.withdrawal.rejectedReturned },
        { kind: 'link', text: copy.withdrawal.rejectedLink, url: `${appUrl}${PATHS.withdrawal}` },
      ]);
    }
    case 'uidListed': {
      const { exchange, platId, uid } = params as MailParams['uidListed'];
      const query = new URLSearchParams({ platId: String(platId), uid });
      return compose(locale, copy, copy.listedSubject(exchange, uid), [
        { kind: 'p', text: copy.listedBody(exchange, uid) },
        { kind: 'link', text: copy.listedLink, url: `${appUrl}${PATHS.uidLinking}?${query}` },
      ]);
    }
    case 'supportAnswered': {
      const answer = params as MailParams['supportAnswered'];
      const blocks: Block[] = [
        { kind: 'p', text: copy.support.about(copy.support.kind[answer.kind], answer.uid) },
      ];
      if (answer.text) {
        blocks.push({ kind: 'p', text: copy.support.answered }, { kind: 'p', text: answer.text });
      }
      if (answer.resolution) blocks.push({ kind: 'p', text: copy.support.resolution[answer.resolution] });
      blocks.push({
        kind: 'link',
        text: copy.support.link,
        url: `${appUrl}${PATHS.myPageSupport}/${answer.requestId}`,
      });
      return compose(locale, copy, copy.support.subject(answer.requestId), blocks);
    }
    case 'uidDisputeNotice': {
      const notice = params as MailParams['uidDisputeNotice'];
      const { exchange, uid } = notice;
      const blocks: Block[] = [{ kind: 'p', text: copy.dispute.event[notice.event](exchange, uid) }];
      if (notice.event === 'closed' || notice.event === 'verified') {
        blocks.push({
          kind: 'p',
          text: notice.stillFrozen ? copy.dispute.stillFrozen : copy.dispute.unfrozen,
        });
      }
      if (notice.event === 'opened' || notice.event === 'moved') {
        // The support form filled in: proof of ownership while they hold it, a dispute once it moved.
        const kind: SupportKind = notice.event === 'opened' ? 'ownership' : 'uidBoundByOther';
        const query = new URLSearchParams({ kind, platId: String(notice.platId), uid });
        blocks.push({
          kind: 'link',
          text: notice.event === 'opened' ? copy.dispute.openedLink : copy.dispute.movedLink,
          url: `${appUrl}${PATHS.myPageSupport}/new?${query}`,
        });
      }
      const subject = notice.event === 'opened' ? copy.dispute.openedSubject : copy.dispute.decidedSubject;
      return compose(locale, copy, subject(exchange, uid), blocks);
    }
    case 'alertWithdrawalRequested':
    case 'alertSyncFailing':
    case 'alertLedgerBroken':
    case 'alertDailySummary':
    case 'alertPayoutWalletShort':
    case 'alertPayoutStuck':
    case 'alertClockSkew': {
      const alert = renderAlertMail(
        template as AlertMailTemplate,
        locale,
        params as AlertMailParams[AlertMailTemplate],
        appUrl,
        (iso) => formatTime(locale, iso),
      );
      return compose(locale, copy, alert.subject, alert.blocks);
    }
    default:
      throw new Error(`unknown mail template ${String(template)}`);
  }
}
