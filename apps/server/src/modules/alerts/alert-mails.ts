import type { Locale } from '@elex/contract';

/**
 * The operators' alert mails (docs/operations.md, "Alerts"), in the operator's language. Rendered by
 * mail/templates.ts like every other mail; the copy and the blocks live here.
 */
export interface AlertMailParams {
  alertWithdrawalRequested: {
    withdrawalId: number;
    memberId: number;
    amount: string;
    exchange: string;
    uid: string;
    address: string;
    at: string;
  };
  alertSyncFailing: { exchange: string; platId: number; failures: number; since: string; error: string };
  alertLedgerBroken: {
    /** 'daily': the background check; 'cli': `npm run ops -- ledger:check`. */
    source: 'daily' | 'cli';
    at: string;
    problems: Array<{ invariant: string; detail: string }>;
  };
  alertDailySummary: DailySummary;
  alertPayoutWalletShort: {
    /** Which runs short: the USDT it pays with, or the gas (POL) each transfer needs. */
    short: 'usdt' | 'gas';
    address: string;
    /** What it holds and what the withdrawals waiting need: USDT, or POL for gas. */
    held: string;
    needed: string;
    /** Withdrawals waiting to be sent or on their way. */
    awaiting: number;
    at: string;
  };
  alertPayoutStuck: {
    /** Held below the network's ask by the fee ceiling, or refused by the node (its words in `error`). */
    reason: 'feeCeiling' | 'refused';
    payoutId: number;
    withdrawalId: number;
    amount: string;
    to: string;
    nonce: number;
    txHash: string;
    /** Gwei per gas: what its latest transaction offers, what the network asks (fee ceiling), the ceiling. */
    offeredGwei: string;
    askedGwei: string | null;
    ceilingGwei: string;
    error: string | null;
    /** When its latest transaction was signed. */
    since: string;
    at: string;
  };
  alertClockSkew: {
    /** The host whose clock is off (os.hostname()); instances on one host share its clock. */
    host: string;
    /** Its clock minus the database's: positive = ahead. */
    skewMs: number;
    /** ALERT_CLOCK_SKEW_MS. */
    thresholdMs: number;
    /** What the instance's clock read, and the database's time, at the reading. */
    instanceAt: string;
    at: string;
  };
}

interface DailySummary {
  /** The UTC day summarised, YYYY-MM-DD. */
  day: string;
  newMembers: number;
  withdrawalsRequested: { count: number; amount: string };
  withdrawalsPaid: { count: number; amount: string };
  /** Commission of the rebate records that arrived that day. */
  commissionImported: string;
  /** Waiting for a decision now. */
  pendingWithdrawals: { count: number; amount: string };
  /** Each exchange's last sync run. */
  syncs: Array<{ exchange: string; status: string; finishedAt: string | null; lastSuccessAt: string | null }>;
}

export type AlertMailTemplate = keyof AlertMailParams;

/** A rendered alert's parts; templates.ts wraps them in the product's mail. */
export type AlertBlock = { kind: 'p'; text: string } | { kind: 'link'; text: string; url: string };

interface AlertCopy {
  withdrawalSubject: (amount: string, exchange: string) => string;
  withdrawalBody: (p: AlertMailParams['alertWithdrawalRequested'], at: string) => string;
  withdrawalLink: string;
  syncSubject: (exchange: string, failures: number) => string;
  syncBody: (p: AlertMailParams['alertSyncFailing'], since: string) => string;
  syncLink: string;
  ledgerSubject: (count: number) => string;
  ledgerBody: (source: 'daily' | 'cli', at: string) => string;
  ledgerAction: string;
  summarySubject: (day: string) => string;
  summaryBody: (s: DailySummary) => string;
  summarySync: (exchange: string, status: string, lastSuccess: string) => string;
  walletSubject: (short: 'usdt' | 'gas') => string;
  walletBody: (p: AlertMailParams['alertPayoutWalletShort'], at: string) => string;
  walletLink: string;
  stuckSubject: (amount: string, reason: 'feeCeiling' | 'refused') => string;
  stuckBody: (p: AlertMailParams['alertPayoutStuck'], since: string) => string;
  skewSubject: (host: string, seconds: string, ahead: boolean) => string;
  skewBody: (p: AlertMailParams['alertClockSkew'], at: string) => string;
  never: string;
  dashboardLink: string;
  turnOff: string;
}

const COPY: Record<Locale, AlertCopy> = {
  en: {
    walletSubject: (short) =>
      short === 'usdt' ? 'Payout wallet short of USDT' : 'Payout wallet short of gas (POL)',
    walletBody: (p, at) =>
      `On ${at} the payout wallet ${p.address} holds ${p.held} ${p.short === 'usdt' ? 'USDT' : 'POL'}, and the ${p.awaiting} withdrawal(s) waiting need ${p.needed}. ${p.short === 'usdt' ? 'Send USDT to the wallet' : 'Send POL to the wallet for gas'} before sending more payouts: a transfer it cannot pay is refused or reverts. You will be told again tomorrow if it is still short.`,
    walletLink: 'See the wallet above the withdrawal queue:',
    stuckSubject: (amount, reason) =>
      reason === 'feeCeiling'
        ? `Payout of ${amount} USDT held at the fee ceiling`
        : `Payout of ${amount} USDT refused by the node`,
    stuckBody: (p, since) =>
      `The payout of withdrawal #${p.withdrawalId} (${p.amount} USDT to ${p.to}, nonce ${p.nonce}, transaction ${p.txHash}) has waited unmined since ${since}. ` +
      (p.reason === 'feeCeiling'
        ? `The network asks ${p.askedGwei} gwei per gas; the payout offers ${p.offeredGwei} gwei and the ceiling PAYOUT_MAX_FEE_GWEI (${p.ceilingGwei} gwei) leaves no raise a node would take (at least 10 %). It lands by itself when fees fall; to pay it sooner, set PAYOUT_MAX_FEE_GWEI to at least 1.1 times the offer on every server and restart them.`
        : `No node accepts it; the node says: ${p.error ?? 'nothing'}. Fix the cause (gas in the wallet, a fee ceiling below what the network accepts) and the server sends it again by itself.`) +
      ' Every later payout of the wallet waits behind this nonce. You will be told again tomorrow if it still waits.',
    withdrawalSubject: (amount, exchange) => `New withdrawal request: ${amount} USDT (${exchange})`,
    withdrawalBody: (p, at) =>
      `Member ${p.memberId} asked on ${at} to withdraw ${p.amount} USDT (withdrawal #${p.withdrawalId}).\nFrom: ${p.exchange} UID ${p.uid}\nTo (Polygon): ${p.address}`,
    withdrawalLink: 'Review it in the withdrawal queue:',
    syncSubject: (exchange, failures) => `${exchange} sync failed ${failures} times in a row`,
    syncBody: (p, since) =>
      `The ${p.exchange} sync has failed ${p.failures} times in a row since ${since}. Last error: ${p.error}\nNew commission figures from ${p.exchange} are not arriving until it recovers. You will not be told again until it has succeeded once.`,
    syncLink: 'See the sync runs:',
    ledgerSubject: (count) => `Ledger check failed: ${count} invariant(s) broken`,
    ledgerBody: (source, at) =>
      `${source === 'cli' ? 'ledger:check at the command line' : 'The daily ledger check'} found broken invariants on ${at}:`,
    ledgerAction:
      'Do not approve withdrawals until this is understood. Run `npm run ops -- ledger:check` on the server for the full report (docs/ledger.md).',
    summarySubject: (day) => `Elex Cashback daily summary for ${day}`,
    summaryBody: (s) =>
      [
        `New members: ${s.newMembers}`,
        `Withdrawals requested: ${s.withdrawalsRequested.count} (${s.withdrawalsRequested.amount} USDT)`,
        `Withdrawals paid: ${s.withdrawalsPaid.count} (${s.withdrawalsPaid.amount} USDT)`,
        `Commission imported: ${s.commissionImported} USDT`,
        `Waiting for a decision now: ${s.pendingWithdrawals.count} (${s.pendingWithdrawals.amount} USDT)`,
      ].join('\n'),
    summarySync: (exchange, status, lastSuccess) =>
      `${exchange}: last run ${status}, last success ${lastSuccess}`,
    skewSubject: (host, seconds, ahead) =>
      `Clock of ${host} is ${seconds} s ${ahead ? 'ahead of' : 'behind'} the database`,
    skewBody: (p, at) =>
      `On ${at} (the database's time) the clock of the server ${p.host} read ${p.instanceAt}: ${Math.abs(p.skewMs)} ms ${p.skewMs > 0 ? 'ahead of' : 'behind'} the database's, more than the ${p.thresholdMs} ms allowed (ALERT_CLOCK_SKEW_MS). That server stamps bindings, unbindings, account deletions and cashback credits with its own clock and starts the check-in day at its own midnight, so a credit can land after a deletion it waited for, or two servers disagree on the day. Fix its time synchronisation (NTP, chrony); its /healthz shows the skew, measured every minute. You will be told again tomorrow if it is still off.`,
    never: 'never',
    dashboardLink: 'Open the console:',
    turnOff: 'You get this alert because it is on in your console settings (Alerts).',
  },
  zh: {
    walletSubject: (short) => (short === 'usdt' ? '付款钱包 USDT 不足' : '付款钱包 Gas（POL）不足'),
    walletBody: (p, at) =>
      `${at}，付款钱包 ${p.address} 有 ${p.held} ${p.short === 'usdt' ? 'USDT' : 'POL'}，待付的 ${p.awaiting} 笔提现需要 ${p.needed}。请在继续发送前${p.short === 'usdt' ? '向钱包充值 USDT' : '向钱包充入 POL 作为 Gas'}：钱包付不起的转账会被拒绝或回退。若明天仍不足，会再次通知。`,
    walletLink: '在提现队列上方查看钱包：',
    stuckSubject: (amount, reason) =>
      reason === 'feeCeiling' ? `${amount} USDT 的付款卡在手续费上限` : `${amount} USDT 的付款被节点拒绝`,
    stuckBody: (p, since) =>
      `提现 #${p.withdrawalId} 的付款（${p.amount} USDT 至 ${p.to}，nonce ${p.nonce}，交易 ${p.txHash}）自 ${since} 起仍未上链。` +
      (p.reason === 'feeCeiling'
        ? `网络要求每单位 Gas ${p.askedGwei} gwei；付款出价 ${p.offeredGwei} gwei，手续费上限 PAYOUT_MAX_FEE_GWEI（${p.ceilingGwei} gwei）已不允许节点接受的加价（至少 10%）。手续费回落后会自动上链；如需更快付款，请在每台服务器上将 PAYOUT_MAX_FEE_GWEI 设为出价的 1.1 倍以上并重启。`
        : `没有节点接受它；节点返回：${p.error ?? '无'}。请排除原因（钱包 Gas 不足、手续费上限低于网络接受的水平），服务器会自动重新发送。`) +
      '钱包之后的付款都排在这个 nonce 之后。若明天仍在等待，会再次通知。',
    withdrawalSubject: (amount, exchange) => `新的提现申请：${amount} USDT（${exchange}）`,
    withdrawalBody: (p, at) =>
      `会员 ${p.memberId} 于 ${at} 申请提现 ${p.amount} USDT（提现 #${p.withdrawalId}）。\n来源：${p.exchange} UID ${p.uid}\n收款地址（Polygon）：${p.address}`,
    withdrawalLink: '在提现队列中审核：',
    syncSubject: (exchange, failures) => `${exchange} 同步已连续失败 ${failures} 次`,
    syncBody: (p, since) =>
      `${p.exchange} 同步自 ${since} 起已连续失败 ${p.failures} 次。最近的错误：${p.error}\n恢复之前不会收到 ${p.exchange} 的新佣金数据。在同步成功一次之前不会再次提醒。`,
    syncLink: '查看同步记录：',
    ledgerSubject: (count) => `账本检查失败：${count} 项不变量被破坏`,
    ledgerBody: (source, at) =>
      `${source === 'cli' ? '命令行 ledger:check' : '每日账本检查'}于 ${at} 发现以下不变量被破坏：`,
    ledgerAction:
      '查明原因之前请勿批准提现。在服务器上运行 `npm run ops -- ledger:check` 查看完整报告（docs/ledger.md）。',
    summarySubject: (day) => `Elex 返佣 ${day} 每日摘要`,
    summaryBody: (s) =>
      [
        `新会员：${s.newMembers}`,
        `提现申请：${s.withdrawalsRequested.count} 笔（${s.withdrawalsRequested.amount} USDT）`,
        `已支付提现：${s.withdrawalsPaid.count} 笔（${s.withdrawalsPaid.amount} USDT）`,
        `导入佣金：${s.commissionImported} USDT`,
        `当前待审核：${s.pendingWithdrawals.count} 笔（${s.pendingWithdrawals.amount} USDT）`,
      ].join('\n'),
    summarySync: (exchange, status, lastSuccess) =>
      `${exchange}：最近一次运行 ${status}，最近成功 ${lastSuccess}`,
    skewSubject: (host, seconds, ahead) => `${host} 的时钟比数据库${ahead ? '快' : '慢'} ${seconds} 秒`,
    skewBody: (p, at) =>
      `${at}（数据库时间），服务器 ${p.host} 的时钟读数为 ${p.instanceAt}，比数据库${p.skewMs > 0 ? '快' : '慢'} ${Math.abs(p.skewMs)} 毫秒，超过允许的 ${p.thresholdMs} 毫秒（ALERT_CLOCK_SKEW_MS）。该服务器用自己的时钟记录绑定、解绑、注销账户和返佣入账的时间，并按自己的零点开始签到日，因此一笔入账可能落在它所等待的注销之后，或两台服务器对日期的判断不一致。请修复其时间同步（NTP、chrony）；其 /healthz 会显示每分钟测得的偏差。若明天仍有偏差，会再次通知。`,
    never: '从未',
    dashboardLink: '打开运营后台：',
    turnOff: '您收到此提醒，是因为您在后台设置（提醒）中开启了它。',
  },
  ko: {
    walletSubject: (short) => (short === 'usdt' ? '지급 지갑의 USDT 부족' : '지급 지갑의 가스(POL) 부족'),
    walletBody: (p, at) =>
      `${at} 기준 지급 지갑 ${p.address}에 ${p.held} ${p.short === 'usdt' ? 'USDT' : 'POL'}가 있고, 대기 중인 출금 ${p.awaiting}건에 ${p.needed}가 필요합니다. 지급을 더 보내기 전에 ${p.short === 'usdt' ? '지갑에 USDT를 보내' : '가스용 POL을 지갑에 보내'} 주세요. 지갑이 감당할 수 없는 전송은 거부되거나 되돌려집니다. 내일도 부족하면 다시 알려 드립니다.`,
    walletLink: '출금 대기열 위의 지갑을 확인하세요:',
    stuckSubject: (amount, reason) =>
      reason === 'feeCeiling'
        ? `${amount} USDT 지급이 수수료 상한에 묶여 있습니다`
        : `${amount} USDT 지급을 노드가 거부했습니다`,
    stuckBody: (p, since) =>
      `출금 #${p.withdrawalId}의 지급(${p.amount} USDT, 받는 주소 ${p.to}, nonce ${p.nonce}, 트랜잭션 ${p.txHash})이 ${since}부터 블록에 담기지 않았습니다. ` +
      (p.reason === 'feeCeiling'
        ? `네트워크는 가스당 ${p.askedGwei} gwei를 요구하고 지급은 ${p.offeredGwei} gwei를 제시하며, 수수료 상한 PAYOUT_MAX_FEE_GWEI(${p.ceilingGwei} gwei)로는 노드가 받아들일 인상(최소 10%)이 불가능합니다. 수수료가 내려가면 저절로 처리됩니다. 더 빨리 지급하려면 모든 서버에서 PAYOUT_MAX_FEE_GWEI를 제시액의 1.1배 이상으로 설정하고 다시 시작하세요.`
        : `어떤 노드도 받아들이지 않습니다. 노드의 응답: ${p.error ?? '없음'}. 원인(지갑의 가스 부족, 네트워크가 받는 수준보다 낮은 수수료 상한)을 해결하면 서버가 저절로 다시 보냅니다.`) +
      ' 지갑의 이후 지급은 모두 이 nonce 뒤에서 기다립니다. 내일도 기다리고 있으면 다시 알려 드립니다.',
    withdrawalSubject: (amount, exchange) => `새 출금 신청: ${amount} USDT (${exchange})`,
    withdrawalBody: (p, at) =>
      `회원 ${p.memberId}이(가) ${at}에 ${p.amount} USDT 출금을 신청했습니다(출금 #${p.withdrawalId}).\n출처: ${p.exchange} UID ${p.uid}\n받는 주소(Polygon): ${p.address}`,
    withdrawalLink: '출금 대기열에서 검토하세요:',
    syncSubject: (exchange, failures) => `${exchange} 동기화가 ${failures}회 연속 실패했습니다`,
    syncBody: (p, since) =>
      `${p.exchange} 동기화가 ${since}부터 ${p.failures}회 연속 실패했습니다. 마지막 오류: ${p.error}\n복구될 때까지 ${p.exchange}의 새 수수료 데이터가 들어오지 않습니다. 한 번 성공할 때까지 다시 알리지 않습니다.`,
    syncLink: '동기화 기록 보기:',
    ledgerSubject: (count) => `원장 점검 실패: 불변 조건 ${count}개 위반`,
    ledgerBody: (source, at) =>
      `${source === 'cli' ? '명령줄의 ledger:check' : '일일 원장 점검'}에서 ${at}에 위반된 불변 조건을 발견했습니다:`,
    ledgerAction:
      '원인을 파악하기 전에는 출금을 승인하지 마세요. 서버에서 `npm run ops -- ledger:check`를 실행해 전체 보고서를 확인하세요(docs/ledger.md).',
    summarySubject: (day) => `Elex 캐시백 ${day} 일일 요약`,
    summaryBody: (s) =>
      [
        `신규 회원: ${s.newMembers}`,
        `출금 신청: ${s.withdrawalsRequested.count}건 (${s.withdrawalsRequested.amount} USDT)`,
        `지급된 출금: ${s.withdrawalsPaid.count}건 (${s.withdrawalsPaid.amount} USDT)`,
        `가져온 수수료: ${s.commissionImported} USDT`,
        `현재 검토 대기: ${s.pendingWithdrawals.count}건 (${s.pendingWithdrawals.amount} USDT)`,
      ].join('\n'),
    summarySync: (exchange, status, lastSuccess) =>
      `${exchange}: 마지막 실행 ${status}, 마지막 성공 ${lastSuccess}`,
    skewSubject: (host, seconds, ahead) =>
      `${host}의 시계가 데이터베이스보다 ${seconds}초 ${ahead ? '빠릅니다' : '느립니다'}`,
    skewBody: (p, at) =>
      `${at}(데이터베이스 시각) 서버 ${p.host}의 시계는 ${p.instanceAt}였습니다. 데이터베이스보다 ${Math.abs(p.skewMs)}ms ${p.skewMs > 0 ? '빠르며' : '느리며'}, 허용치 ${p.thresholdMs}ms(ALERT_CLOCK_SKEW_MS)를 넘습니다. 이 서버는 바인딩, 바인딩 해제, 계정 삭제, 캐시백 적립 시각을 자기 시계로 기록하고 출석 체크 날짜도 자기 자정에 바꾸므로, 적립이 기다리던 삭제보다 뒤에 기록되거나 서버끼리 날짜가 달라질 수 있습니다. 시간 동기화(NTP, chrony)를 고치세요. 그 서버의 /healthz에 1분마다 잰 차이가 나옵니다. 내일도 어긋나 있으면 다시 알려 드립니다.`,
    never: '없음',
    dashboardLink: '운영 콘솔 열기:',
    turnOff: '콘솔 설정(알림)에서 이 알림을 켜 두셨기 때문에 받으셨습니다.',
  },
};

export function renderAlertMail(
  template: AlertMailTemplate,
  locale: Locale,
  params: AlertMailParams[AlertMailTemplate],
  appUrl: string,
  time: (iso: string) => string,
): { subject: string; blocks: AlertBlock[] } {
  const copy = COPY[locale];
  const footer: AlertBlock = { kind: 'p', text: copy.turnOff };
  switch (template) {
    case 'alertWithdrawalRequested': {
      const p = params as AlertMailParams['alertWithdrawalRequested'];
      return {
        subject: copy.withdrawalSubject(p.amount, p.exchange),
        blocks: [
          { kind: 'p', text: copy.withdrawalBody(p, time(p.at)) },
          { kind: 'link', text: copy.withdrawalLink, url: `${appUrl}/admin/withdrawals` },
          footer,
        ],
      };
    }
    case 'alertSyncFailing': {
      const p = params as AlertMailParams['alertSyncFailing'];
      return {
        subject: copy.syncSubject(p.exchange, p.failures),
        blocks: [
          { kind: 'p', text: copy.syncBody(p, time(p.since)) },
          { kind: 'link', text: copy.syncLink, url: `${appUrl}/admin/imports` },
          footer,
        ],
      };
    }
    case 'alertLedgerBroken': {
      const p = params as AlertMailParams['alertLedgerBroken'];
      return {
        subject: copy.ledgerSubject(p.problems.length),
        blocks: [
          { kind: 'p', text: copy.ledgerBody(p.source, time(p.at)) },
          {
            kind: 'p',
            text: p.problems.map((problem) => `- ${problem.invariant}: ${problem.detail}`).join('\n'),
          },
          { kind: 'p', text: copy.ledgerAction },
          footer,
        ],
      };
    }
    case 'alertDailySummary': {
      const s = params as DailySummary;
      const syncs = s.syncs.map((sync) =>
        copy.summarySync(
          sync.exchange,
          sync.status,
          sync.lastSuccessAt ? time(sync.lastSuccessAt) : copy.never,
        ),
      );
      return {
        subject: copy.summarySubject(s.day),
        blocks: [
          { kind: 'p', text: copy.summaryBody(s) },
          ...(syncs.length > 0 ? [{ kind: 'p' as const, text: syncs.join('\n') }] : []),
          { kind: 'link', text: copy.dashboardLink, url: `${appUrl}/admin` },
          footer,
        ],
      };
    }
    case 'alertPayoutWalletShort': {
      const p = params as AlertMailParams['alertPayoutWalletShort'];
      return {
        subject: copy.walletSubject(p.short),
        blocks: [
          { kind: 'p', text: copy.walletBody(p, time(p.at)) },
          { kind: 'link', text: copy.walletLink, url: `${appUrl}/admin/withdrawals` },
          footer,
        ],
      };
    }
    case 'alertPayoutStuck': {
      const p = params as AlertMailParams['alertPayoutStuck'];
      return {
        subject: copy.stuckSubject(p.amount, p.reason),
        blocks: [
          { kind: 'p', text: copy.stuckBody(p, time(p.since)) },
          { kind: 'link', text: copy.walletLink, url: `${appUrl}/admin/withdrawals` },
          footer,
        ],
      };
    }
    case 'alertClockSkew': {
      const p = params as AlertMailParams['alertClockSkew'];
      return {
        subject: copy.skewSubject(p.host, (Math.abs(p.skewMs) / 1000).toFixed(1), p.skewMs > 0),
        blocks: [{ kind: 'p', text: copy.skewBody(p, time(p.at)) }, footer],
      };
    }
    default:
      throw new Error(`unknown alert template ${String(template)}`);
  }
}
